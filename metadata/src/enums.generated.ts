// Generated from metadata/enums.json and plugins/*/metadata/enums.json by metadata/scripts/gen-enums.mjs
// (`npm run gen:enums`). Do not edit: change enums.json and run the generator; npm test checks this file is current.
// One const per enum (`CarrierBindStatusEnum.new`), so a browser bundle keeps only the enums
// it uses, and `Enums` holding them all (`Enums.carrierBindStatus.new`) for server code.

export const DeviceStatusEnum = {
  unknown: 0,
  online: 10,
  offline: 20,
  ineffective: 30,
} as const;
export const DeviceUseStatusEnum = {
  registered: 10,
  enabled: 20,
  disabled: 30,
} as const;
export const DeviceTypeEnum = {
  beacon: 10,
  gps: 20,
  slaveGateway: 30,
  masterGateway: 40,
} as const;
export const DeviceFeatureEnum = {
  temperature: 'temperature',
  speed: 'speed',
  humidity: 'humidity',
  vibration: 'vibration',
} as const;
export const GpsConfigStatusEnum = {
  pending: 0,
  configuring: 10,
  effective: 20,
  notEffective: 30,
} as const;
export const GpsLocateModelEnum = {
  gpsLbs: 10,
  lbs: 20,
} as const;
export const GpsDataTypeEnum = {
  location: 10,
  event: 20,
  temperatureHumidity: 30,
} as const;
export const SlaveGatewayPurposeEnum = {
  inWarehouse: 10,
  gate: 20,
  geofence: 50,
  truckDetection: 60,
} as const;
export const CarrierStatusEnum = {
  new: 0,
  inUse: 10,
  standby: 20,
  scrapped: 30,
  lost: 40,
  maintenance: 50,
  damaged: 60,
} as const;
export const CarrierLimitsEnum = {
  unlimited: 0,
  oneTime: 1,
} as const;
export const LoadingStatusEnum = {
  unknown: 0,
  empty: 10,
  full: 20,
} as const;
export const TransportStatusEnum = {
  unknown: 0,
  inWarehouse: 10,
  inTransit: 20,
  idle: 30,
  abnormal: 40,
} as const;
export const CarrierTypeEnum = {
  box: 10,
  forklift: 20,
  pallet: 30,
  truck: 40,
  container: 50,
  shipOrder: 60,
  others: 70,
} as const;
export const CarrierBindStatusEnum = {
  new: 10,
  released: 20,
  closed: 30,
} as const;
export const CarrierCodeParticularEnum = {
  vehicle: 10,
  truckDetector: 20,
  etc: 30,
} as const;
export const ConfirmSourceEnum = {
  hand: 10,
  beacon: 20,
  gps: 30,
} as const;
export const TransferOrderStatusEnum = {
  planned: 10,
  new: 20,
  released: 30,
  loaded: 40,
  closed: 50,
} as const;
export const DeliveryReceiveOrderStatusEnum = {
  new: 1,
  delivered: 2,
  received: 3,
} as const;
export const TransportTypeEnum = {
  sea: 10,
  land: 20,
  air: 30,
  mixed: 40,
} as const;
export const AlertStatusEnum = {
  unsolved: 0,
  solved: 10,
} as const;
export const CarrierAlertReasonEnum = {
  invalidRoute: 10,
  transportTimeout: 20,
  idle: 30,
} as const;
export const BeaconAlertReasonEnum = {
  battery: 10,
  temperature: 20,
  speed: 30,
  humidity: 40,
  vibration: 50,
  clientOnline: 60,
  clientOffline: 70,
  clientUnknown: 80,
} as const;
export const GatewayAlertReasonEnum = {
  connection: 10,
  offline: 20,
} as const;
export const InventoryAdjustStatusEnum = {
  new: 1,
  adjusted: 2,
} as const;
export const InventoryAdjustTypeEnum = {
  outAndIn: 1,
  out: 2,
  in: 3,
} as const;
export const InventoryViewEnum = {
  inventory: 10,
  carrierAlert: 20,
  idle: 30,
} as const;
export const InoutDirectionEnum = {
  inbound: 10,
  outbound: 20,
} as const;
export const MaintenanceStatusEnum = {
  new: 1,
  inProgress: 2,
  completed: 3,
  audited: 4,
  rejected: 5,
} as const;
export const MaintenanceTypeEnum = {
  spotCheck: 1,
  inspection: 2,
  repair: 3,
  upkeep: 4,
} as const;
export const MaintenancePatternEnum = {
  onSite: 1,
  returnToFactory: 2,
  outsourced: 3,
} as const;
export const CarrierAssetStatusEnum = {
  new: 1,
  accepted: 2,
  enabled: 3,
  scrapped: 4,
} as const;
export const AssetTransferStatusEnum = {
  transferredOut: 1,
  received: 2,
} as const;
export const FixedAssetEnum = {
  no: 0,
  yes: 1,
} as const;
export const RfidOrderStatusEnum = {
  processing: 1,
  finished: 2,
} as const;
export const RfidOrderTypeEnum = {
  send: 1,
  receive: 2,
} as const;
export const LabelScanResultEnum = {
  success: 0,
  failure: 2,
  failure3: 3,
  failure4: 4,
} as const;
export const ImportStatusEnum = {
  processing: 10,
  finished: 20,
} as const;
export const CarrierLogEventEnum = {
  register: 10,
  bindBeacon: 20,
  unbindBeacon: 30,
  bindGps: 40,
  unbindGps: 50,
  statusChange: 60,
  transportStatusChange: 70,
  abnormal: 80,
  longIdle: 90,
} as const;
export const DeviceLogEventEnum = {
  register: 10,
  bind: 20,
  unbind: 30,
  statusChange: 40,
  useStatusChange: 50,
  abnormal: 60,
} as const;
export const OrganizationLevelEnum = {
  a: 10,
  b: 20,
  c: 30,
  d: 40,
} as const;
export const PermissionTypeEnum = {
  menu: 10,
  view: 20,
  api: 30,
} as const;
export const ConnectionStatusEnum = {
  connected: 10,
  disconnected: 20,
} as const;
export const PowerPlugEnum = {
  notConnected: 0,
  connected: 1,
} as const;
export const AccStatusEnum = {
  off: 0,
  on: 1,
} as const;
export const OpenCloseEnum = {
  close: 0,
  open: 1,
} as const;
export const SwitchStatusEnum = {
  stop: 0,
  start: 1,
} as const;
export const ChargeProposalEnum = {
  recharge: 10,
  clearDisk: 20,
} as const;
export const SensorTypeEnum = {
  temperature: 1,
  humidity: 2,
  shock: 3,
  pressure: 4,
} as const;
export const ColorTagEnum = {
  green: 10,
  blue: 20,
  grey: 30,
  red: 40,
  yellow: 50,
} as const;
export const BatteryLevelEnum = {
  low: 10,
  middle: 20,
  high: 30,
} as const;
export const DatabaseTypeEnum = {
  mysql: 10,
  timeSeries: 20,
} as const;
export const SupplierCustomerTypeEnum = {
  supplier: 10,
  customer: 20,
  packagingSupplier: 30,
} as const;
export const LocationTypeEnum = {
  own: 0,
  supplier: 10,
  customer: 20,
  packagingSupplier: 30,
} as const;
export const InoutProcessorEnum = {
  fullCoverage: 10,
  partialNode: 20,
  customerCheck: 30,
} as const;
export const DictionaryCategoryEnum = {
  material: 10,
  unit: 20,
  carrierType: 30,
  color: 40,
  gatewayPurpose: 50,
  assetNature: 60,
  area: 70,
  department: 80,
  rootCause: 90,
  maintenanceLocation: 91,
  maintenancePosition: 92,
  maintenanceCategory: 93,
} as const;
export const TaskNameEnum = {
  customerTask: 1,
  dailyInventoryReport: 2,
  dailyInventoryReportMail: 3,
  weeklyInventoryReport: 5,
  customerDailyReportA: 11,
  customerDailyReportB: 12,
  customerDailyReportAMail: 31,
  customerDailyReportBMail: 32,
  threeBatchReport: 40,
  threeBatchReportMail: 41,
  maintenanceExpiryMail: 50,
  gpsReportMail: 60,
  gpsAlertMail: 70,
  maintenanceTopReportMail: 51,
  maintenanceRepairReportMail: 52,
  partnerStatementMail: 900,
} as const;
export const TaskTypeEnum = {
  normal: 10,
  mail: 20,
  enterpriseChat: 30,
  datedNormal: 40,
  datedMail: 50,
  gpsAlertMail: 60,
} as const;
export const SuggestionTypeEnum = {
  beacon: 10,
  serverDisk: 20,
} as const;
export const OperationLogObjectEnum = {
  user: 1,
  role: 2,
  organization: 3,
  deviceModel: 4,
  deviceGps: 5,
  deviceBeacon: 6,
  deviceMasterGateway: 7,
  deviceSlaveGateway: 8,
  carrier: 9,
  carrierInout: 10,
  dictionary: 11,
  carrierAlert: 12,
  carrierCode: 13,
  config: 14,
  beaconAlert: 15,
  slaveGatewayAlert: 17,
  masterGatewayAlert: 18,
  carrierAsset: 42,
} as const;
export const OperationLogActionEnum = {
  create: 10,
  update: 20,
  delete: 30,
} as const;
export const LicenceCategoryEnum = {
  temporary: 10,
  authorised: 20,
  permanent: 30,
} as const;
export const LanguageEnum = {
  enUS: 'en-US',
  zhCN: 'zh-CN',
  jaJP: 'ja-JP',
} as const;
export const CarrierImportErrorEnum = {
  carrierCodeNotFound: 10,
  snDuplicated: 20,
  snExists: 30,
  limitsInvalid: 40,
  timeInvalid: 50,
  remarkInvalid: 60,
  beaconNotFound: 70,
  beaconBound: 80,
  gpsNotFound: 90,
  gpsBound: 100,
  statusInvalid: 110,
  snNotFound: 120,
} as const;
export const BeaconImportErrorEnum = {
  deviceModelNotFound: 10,
  snDuplicated: 20,
  snExists: 30,
  macDuplicated: 40,
  macExists: 50,
  timeInvalid: 60,
  remarkInvalid: 70,
} as const;
export const RfidImportErrorEnum = {
  productType: 10,
  name: 20,
  sku: 30,
  nc12: 40,
  bomVendor: 50,
  quantity: 60,
} as const;
export const SharedImportErrorEnum = {
  carrierUnavailable: 10,
  carrierSnNotFound: 20,
  containerNoEmpty: 30,
  containerImportFailed: 40,
  carrierSnEmpty: 50,
  carrierNameEmpty: 51,
  duplicated: 60,
  remarkTooLong: 70,
  carrierNotInWarehouse: 80,
  containerNumberEmpty: 90,
  deliveryNoteEmpty: 91,
  msnOrDateEmpty: 92,
  msnDateConflict: 93,
  alreadyExists: 94,
  dateInvalid: 95,
  carrierCodeEmpty: 96,
  carrierCodeNotFound: 97,
  warehouseNotFound: 98,
  cycleDaysEmpty: 99,
  warehouseEmpty: 100,
  codeMissing: 101,
  partCodeEmpty: 192,
  partQtyEmpty: 193,
  parentCodeEmpty: 194,
  partCarrierCodeEmpty: 195,
} as const;
export const AssetImportErrorEnum = {
  areaNotFound: 201,
  departmentNotFound: 202,
  assetNatureNotFound: 203,
  timeInvalid: 204,
  assetNotFound: 205,
  maintenanceCycleInvalid: 206,
  fixedFlagInvalid: 207,
  assetScrapped: 208,
  originalPriceInvalid: 209,
} as const;
export const BindPackingImportErrorEnum = {
  carrierBoundElsewhere: 300,
  unreleasedBindOrder: 301,
  quantityInvalid: 401,
  weightInvalid: 402,
  shipOrderNoEmpty: 403,
  shipOrderNotFound: 404,
  carrierNotInOrder: 405,
  noPackingListToOverwrite: 406,
  packingListExists: 407,
} as const;
export const GpsImportErrorEnum = {
  snEmpty: 500,
  snExists: 501,
  nameEmpty: 502,
  modelEmpty: 503,
  modelNotFound: 504,
  statusEmpty: 505,
  statusInvalid: 506,
  reportCycleEmpty: 507,
  sensorSampleCycleEmpty: 508,
  sensorRecordCycleEmpty: 509,
  sensorReportCycleEmpty: 510,
  locateModelEmpty: 511,
  locateModelInvalid: 512,
  highTempThresholdEmpty: 513,
  lowTempThresholdEmpty: 514,
  shakeThresholdEmpty: 515,
  highHumidityThresholdEmpty: 516,
  lowHumidityThresholdEmpty: 517,
  remarkInvalid: 518,
} as const;
export const FenceTypeEnum = {
  circle: 10,
} as const;
export const FenceActionEnum = {
  enter: 10,
  leave: 20,
} as const;
export const MapProviderEnum = {
  amap: 10,
  bing: 20,
} as const;
export const InventoryAdjustLineStatusEnum = {
  pending: 10,
  checked: 20,
  adjusted: 30,
} as const;
export const InventoryCarrierViewEnum = {
  stock: 'stock',
  maintain: 'maintain',
  idle: 'idle',
  empty: 'empty',
  full: 'full',
} as const;
export const InventoryCountStatusEnum = {
  new: 10,
  closed: 20,
} as const;
export const InventoryCountResultEnum = {
  pending: 10,
  confirmed: 20,
  moved: 30,
  lost: 40,
} as const;
export const PoolGroupingEnum = {
  warehouse: 10,
  partner: 20,
  carrierCode: 30,
} as const;
export const DeliveryStatusEnum = {
  new: 10,
  delivering: 20,
  released: 30,
  closed: 40,
} as const;
export const ShipOrderTypeEnum = {
  planned: 1,
  standard: 2,
  supplementary: 3,
  return: 4,
} as const;
export const ReceiptLineStatusEnum = {
  expected: 10,
  received: 20,
  missing: 30,
  extra: 40,
} as const;
export const ReceiptStatusEnum = {
  new: 10,
  receiving: 20,
  closed: 30,
} as const;
export const ShipOrderLineStatusEnum = {
  pending: 10,
  shipped: 20,
  received: 30,
  missing: 40,
  extra: 50,
} as const;
export const ShipOrderStatusEnum = {
  new: 1,
  released: 2,
  delivered: 3,
  received: 4,
  closed: 5,
  cancelled: 6,
} as const;
export const ShipPlanTypeEnum = {
  newBoxDelivery: 10,
  emptyBoxReturn: 20,
} as const;
export const ShipPlanStatusEnum = {
  new: 10,
  released: 20,
  cancelled: 30,
} as const;
export const TruckStatusEnum = {
  loading: 10,
  inTransit: 20,
  receiving: 30,
  finished: 40,
  deleted: 50,
} as const;

export const Enums = {
  deviceStatus: DeviceStatusEnum,
  deviceUseStatus: DeviceUseStatusEnum,
  deviceType: DeviceTypeEnum,
  deviceFeature: DeviceFeatureEnum,
  gpsConfigStatus: GpsConfigStatusEnum,
  gpsLocateModel: GpsLocateModelEnum,
  gpsDataType: GpsDataTypeEnum,
  slaveGatewayPurpose: SlaveGatewayPurposeEnum,
  carrierStatus: CarrierStatusEnum,
  carrierLimits: CarrierLimitsEnum,
  loadingStatus: LoadingStatusEnum,
  transportStatus: TransportStatusEnum,
  carrierType: CarrierTypeEnum,
  carrierBindStatus: CarrierBindStatusEnum,
  carrierCodeParticular: CarrierCodeParticularEnum,
  confirmSource: ConfirmSourceEnum,
  transferOrderStatus: TransferOrderStatusEnum,
  deliveryReceiveOrderStatus: DeliveryReceiveOrderStatusEnum,
  transportType: TransportTypeEnum,
  alertStatus: AlertStatusEnum,
  carrierAlertReason: CarrierAlertReasonEnum,
  beaconAlertReason: BeaconAlertReasonEnum,
  gatewayAlertReason: GatewayAlertReasonEnum,
  inventoryAdjustStatus: InventoryAdjustStatusEnum,
  inventoryAdjustType: InventoryAdjustTypeEnum,
  inventoryView: InventoryViewEnum,
  inoutDirection: InoutDirectionEnum,
  maintenanceStatus: MaintenanceStatusEnum,
  maintenanceType: MaintenanceTypeEnum,
  maintenancePattern: MaintenancePatternEnum,
  carrierAssetStatus: CarrierAssetStatusEnum,
  assetTransferStatus: AssetTransferStatusEnum,
  fixedAsset: FixedAssetEnum,
  rfidOrderStatus: RfidOrderStatusEnum,
  rfidOrderType: RfidOrderTypeEnum,
  labelScanResult: LabelScanResultEnum,
  importStatus: ImportStatusEnum,
  carrierLogEvent: CarrierLogEventEnum,
  deviceLogEvent: DeviceLogEventEnum,
  organizationLevel: OrganizationLevelEnum,
  permissionType: PermissionTypeEnum,
  connectionStatus: ConnectionStatusEnum,
  powerPlug: PowerPlugEnum,
  accStatus: AccStatusEnum,
  openClose: OpenCloseEnum,
  switchStatus: SwitchStatusEnum,
  chargeProposal: ChargeProposalEnum,
  sensorType: SensorTypeEnum,
  colorTag: ColorTagEnum,
  batteryLevel: BatteryLevelEnum,
  databaseType: DatabaseTypeEnum,
  supplierCustomerType: SupplierCustomerTypeEnum,
  locationType: LocationTypeEnum,
  inoutProcessor: InoutProcessorEnum,
  dictionaryCategory: DictionaryCategoryEnum,
  taskName: TaskNameEnum,
  taskType: TaskTypeEnum,
  suggestionType: SuggestionTypeEnum,
  operationLogObject: OperationLogObjectEnum,
  operationLogAction: OperationLogActionEnum,
  licenceCategory: LicenceCategoryEnum,
  language: LanguageEnum,
  carrierImportError: CarrierImportErrorEnum,
  beaconImportError: BeaconImportErrorEnum,
  rfidImportError: RfidImportErrorEnum,
  sharedImportError: SharedImportErrorEnum,
  assetImportError: AssetImportErrorEnum,
  bindPackingImportError: BindPackingImportErrorEnum,
  gpsImportError: GpsImportErrorEnum,
  fenceType: FenceTypeEnum,
  fenceAction: FenceActionEnum,
  mapProvider: MapProviderEnum,
  inventoryAdjustLineStatus: InventoryAdjustLineStatusEnum,
  inventoryCarrierView: InventoryCarrierViewEnum,
  inventoryCountStatus: InventoryCountStatusEnum,
  inventoryCountResult: InventoryCountResultEnum,
  poolGrouping: PoolGroupingEnum,
  deliveryStatus: DeliveryStatusEnum,
  shipOrderType: ShipOrderTypeEnum,
  receiptLineStatus: ReceiptLineStatusEnum,
  receiptStatus: ReceiptStatusEnum,
  shipOrderLineStatus: ShipOrderLineStatusEnum,
  shipOrderStatus: ShipOrderStatusEnum,
  shipPlanType: ShipPlanTypeEnum,
  shipPlanStatus: ShipPlanStatusEnum,
  truckStatus: TruckStatusEnum,
} as const;

export type EnumName = keyof typeof Enums;
/** the value type of one enum, e.g. EnumValueOf<'transportStatus'> = 0 | 10 | 20 | … */
export type EnumValueOf<N extends EnumName> = (typeof Enums)[N][keyof (typeof Enums)[N]];
