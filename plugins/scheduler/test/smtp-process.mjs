// A real SMTP server (the smtp-server package, nodemailer's own) run as a child process by
// smtp-delivery.test.ts: `node smtp-process.mjs <port> accept|refuse`. Prints "ready" once
// listening and one JSON line per delivered message ({ from, to, data }); "refuse" answers every
// MAIL FROM with 451 (a server that is there but does not take mail now).
import { SMTPServer } from 'smtp-server';

const [port, mode] = process.argv.slice(2);
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onMailFrom(_address, _session, callback) {
    if (mode !== 'refuse') return callback();
    const err = new Error('Mailbox unavailable, try again later');
    err.responseCode = 451;
    return callback(err);
  },
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      const data = Buffer.concat(chunks).toString('utf8');
      process.stdout.write(JSON.stringify({ from: session.envelope.mailFrom.address, to: session.envelope.rcptTo.map((r) => r.address), data }) + '\n');
      callback(null, 'queued');
    });
  },
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
