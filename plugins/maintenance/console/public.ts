import type { PublicPage } from '@rti/console/plugin-api';

/** Maintenance's page without sign-in: the rack behind the code fixed to it. */
const pages: PublicPage[] = [{ path: '/info/mainten', component: () => import('./info-mainten') }];
export default pages;
