/**
 * The demo organisations and the people in them: three organisations (two with an operator
 * login), a platform admin in all of them, and the four logistics cities their warehouses
 * are spread around (SPEC §3 "geographic default list": four cities, one default).
 */
import { readFileSync } from 'node:fs';

const svgDataUrl = (file: string): string => 'data:image/svg+xml;base64,' + readFileSync(new URL(`../assets/${file}`, import.meta.url)).toString('base64');

export interface DemoOrg {
  code: string;
  entryCode: string;
  name: string;
  shortName: string;
  primaryColor: string;
  menuColor: string;
  logo: string;
  mark: string;
  /** whether the organisation has a documented operator login (operator.<entryCode>) */
  operatorLogin: boolean;
  /** keys of CITIES the organisation's warehouses are spread over, in turn */
  cities: CityKey[];
  /** beacon models (the first three), then the GPS tracker model, then the gateway models */
  models: Array<{ name: string; brand: string }>;
  gpsModel: { name: string; brand: string };
  gatewayModels: { master: { name: string; brand: string }; slave: { name: string; brand: string } };
}

export type CityKey = 'shanghai' | 'shenzhen' | 'tokyo' | 'osaka';

/** SPEC's four default cities (Shanghai the default): real container ports and logistics hubs. */
export const CITIES: Record<CityKey, { name: string; country: 'CN' | 'JP'; longitude: number; latitude: number; district: string[] }> = {
  shanghai: {
    name: 'Shanghai',
    country: 'CN',
    longitude: 121.4737,
    latitude: 31.2304,
    district: ['Pudong', 'Jiading', 'Baoshan', 'Songjiang', 'Minhang', 'Yangshan'],
  },
  shenzhen: {
    name: 'Shenzhen',
    country: 'CN',
    longitude: 114.0579,
    latitude: 22.5431,
    district: ['Yantian', 'Shekou', 'Longgang', "Bao'an", 'Pingshan', 'Guangming'],
  },
  tokyo: { name: 'Tokyo', country: 'JP', longitude: 139.6917, latitude: 35.6895, district: ['Koto', 'Ota', 'Shinagawa', 'Edogawa', 'Adachi', 'Itabashi'] },
  osaka: {
    name: 'Osaka',
    country: 'JP',
    longitude: 135.5023,
    latitude: 34.6937,
    district: ['Suminoe', 'Konohana', 'Taisho', 'Nishiyodogawa', 'Higashiosaka', 'Sakai'],
  },
};
export const DEFAULT_CITY: CityKey = 'shanghai';

export const DEMO_ORGS: DemoOrg[] = [
  {
    code: 'DEMO',
    entryCode: 'demo',
    name: 'Demo Logistics',
    shortName: 'Demo',
    primaryColor: '#F5A623',
    menuColor: '#1F2D3D',
    logo: 'demo-logo.svg',
    mark: 'demo-mark.svg',
    operatorLogin: true,
    cities: ['shanghai', 'shenzhen', 'tokyo', 'osaka'],
    models: [
      { name: 'BLE Tag S1', brand: 'Minew' },
      { name: 'BLE Tag L2', brand: 'Minew' },
      { name: 'Rugged Beacon R3', brand: 'Kontakt' },
    ],
    gpsModel: { name: 'Asset Tracker FMC', brand: 'Teltonika' },
    gatewayModels: { master: { name: 'Master Gateway MG1', brand: 'Minew' }, slave: { name: 'BLE Gateway G1', brand: 'Minew' } },
  },
  {
    code: 'ACME',
    entryCode: 'acme',
    name: 'Acme Returnables',
    shortName: 'Acme',
    primaryColor: '#722ED1',
    menuColor: '#2B1055',
    logo: 'acme-logo.svg',
    mark: 'acme-mark.svg',
    operatorLogin: true,
    cities: ['tokyo', 'osaka', 'shanghai'],
    models: [
      { name: 'Pallet Beacon P1', brand: 'Acme' },
      { name: 'Box Beacon B2', brand: 'Acme' },
      { name: 'Container Beacon C3', brand: 'Teltonika' },
    ],
    gpsModel: { name: 'Truck Tracker T7', brand: 'Queclink' },
    gatewayModels: { master: { name: 'Yard Master Y2', brand: 'Acme' }, slave: { name: 'Dock Gateway D1', brand: 'Acme' } },
  },
  {
    code: 'KANSAI',
    entryCode: 'kansai',
    name: 'Kansai Pallet Pool',
    shortName: 'Kansai',
    primaryColor: '#13A8A8',
    menuColor: '#0B3C49',
    logo: 'kansai-logo.svg',
    mark: 'kansai-mark.svg',
    operatorLogin: false,
    cities: ['osaka', 'shenzhen'],
    models: [
      { name: 'Pallet Tag K1', brand: 'Kontakt' },
      { name: 'Crate Tag K2', brand: 'Kontakt' },
      { name: 'Heavy Tag K3', brand: 'Minew' },
    ],
    gpsModel: { name: 'Fleet Tracker F3', brand: 'Teltonika' },
    gatewayModels: { master: { name: 'Hub Gateway H1', brand: 'Kontakt' }, slave: { name: 'Portal Gateway P2', brand: 'Kontakt' } },
  },
];

export const logoUrl = svgDataUrl;

export const DEMO_LOGINS = [
  { username: 'admin', password: 'Admin@12345', note: 'platform administrator, all three organisations (sys-org user)' },
  { username: 'operator.demo', password: 'Operator@12345', note: 'operator of Demo Logistics, entry code demo, 2 warehouses' },
  { username: 'operator.acme', password: 'Operator@12345', note: 'operator of Acme Returnables, entry code acme, 2 warehouses' },
];

/** operators see the first this many warehouses of their organisation */
export const OPERATOR_WAREHOUSES = 2;
