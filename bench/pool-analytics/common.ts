/**
 * The server the pool analytics benches start: shipping, inventory and pool analytics, and no
 * job catching up beside the bench, which times the catch-ups itself.
 */
import { createServer, type RtiServer } from '../../server/src/index';

export type Answer = { total: number; list: Array<Record<string, number | string | null>> };

export async function bootPool(databaseUrl: string): Promise<RtiServer> {
  const server = await createServer({
    databaseUrl,
    plugins: ['shipping', 'inventory', 'pool-analytics'],
    logError: (...a: unknown[]) => console.error(...a.map((x) => (x instanceof Error ? x.message : x))),
  });
  await server.jobs.stop();
  return server;
}
