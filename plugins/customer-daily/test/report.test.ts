import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server';

let ts: TestServer;
beforeAll(async () => void (ts = await startTestServer({ plugins: ['shipping', 'inventory', 'customer-daily'] })));
afterAll(() => ts?.close());

it('lists, exports and is a scheduler task type', async () => {
  await ts.a.call('/warehouse/create', { code: 'W1', name: 'Plant', minInventory: 5 });
  const list = await ts.a.call('/customer-daily/list', {});
  expect(list.body.data.list).toMatchObject([{ warehouseName: 'Plant', inStock: 0, min: 5, levelKey: 'below' }]);
  expect((await ts.a.fetch('/customer-daily/export', {})).headers.get('content-type')).toContain('spreadsheet');
  expect(ts.server.reports.task('customerTask')).toBeTruthy();
});
