/** Report definitions: types, the shared time range, row sources and the registry. */
export * from './types';
export { ReportRegistry, type ReportDescription, type ReportWorkbook } from './registry';
export { parseParameters, searchFields, timeRange } from './parameters';
export {
  DAY_MS,
  dayOf,
  dayStart,
  formatTime,
  isZone,
  lastFullDays,
  parseOpenTimeRange,
  parseTimeRange,
  zoneOffset,
  type TimeRangeOptions,
  type Zone,
} from './time';
export { repositoryPage, repositoryScan, type RepositoryQuery } from './sources';
