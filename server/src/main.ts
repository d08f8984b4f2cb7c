/** `npm start` / `npm run dev`: migrate, load plugins, listen on PORT, stop cleanly on signals. */
import { createServer } from './index';

const server = await createServer();
const { url } = await server.listen();
console.log(
  `RTI Console listening on ${url.replace('127.0.0.1', 'localhost')} (database: ${server.db.dialect}, plugins: ${server.plugins.map((p) => p.id).join(', ') || 'none'})`,
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received, shutting down`);
  server.close().then(
    () => process.exit(0),
    (err) => {
      console.error('shutdown failed:', err);
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
