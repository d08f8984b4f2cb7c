import type { PublicPage } from '@rti/console/plugin-api';

/** Shipping's page without sign-in: the ship order behind the code printed on a delivery note. */
const pages: PublicPage[] = [{ path: '/info/ship-order', component: () => import('./info-ship-order') }];
export default pages;
