/** The demo organisations and the people in them (SPEC §1: two organisations, a platform admin, an operator each). */
import { readFileSync } from 'node:fs';

const svgDataUrl = (file: string): string =>
  'data:image/svg+xml;base64,' + readFileSync(new URL(`../assets/${file}`, import.meta.url)).toString('base64');

export interface DemoOrg {
  code: string;
  entryCode: string;
  name: string;
  shortName: string;
  primaryColor: string;
  menuColor: string;
  logo: string;
  mark: string;
  /** city names used for warehouse names */
  sites: string[];
  models: Array<{ name: string; brand: string }>;
}

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
    sites: ['Hamburg', 'Rotterdam', 'Antwerp', 'Duisburg', 'Prague'],
    models: [
      { name: 'BLE Tag S1', brand: 'Minew' },
      { name: 'BLE Tag L2', brand: 'Minew' },
      { name: 'Rugged Beacon R3', brand: 'Kontakt' },
    ],
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
    sites: ['Lyon', 'Turin', 'Munich', 'Vienna', 'Budapest'],
    models: [
      { name: 'Pallet Beacon P1', brand: 'Acme' },
      { name: 'Box Beacon B2', brand: 'Acme' },
      { name: 'Container Beacon C3', brand: 'Teltonika' },
    ],
  },
];

export const logoUrl = svgDataUrl;

export const DEMO_LOGINS = [
  { username: 'admin', password: 'Admin@12345', note: 'platform administrator, both organisations (sys-org user)' },
  { username: 'operator.demo', password: 'Operator@12345', note: 'operator of Demo Logistics, entry code demo, 2 warehouses' },
  { username: 'operator.acme', password: 'Operator@12345', note: 'operator of Acme Returnables, entry code acme, 2 warehouses' },
];

export const BEACONS_PER_ORG = 50;
/** operators see the first this many warehouses of their organisation */
export const OPERATOR_WAREHOUSES = 2;
