/**
 * Vendor tool for licence files (not loaded by the server).
 *   npx tsx plugins/licence/server/sign-cli.ts keygen <dir>          → <dir>/licence-private.pem, licence-public.pem
 *   npx tsx plugins/licence/server/sign-cli.ts sign <private.pem> <licence.json>   → signed file on stdout
 * licence.json holds the `licence` object of licence-file.ts. Keep the private key off servers.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signLicence, type Licence } from './licence-file';

const [cmd, a, b] = process.argv.slice(2);
if (cmd === 'keygen' && a) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(join(a, 'licence-private.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  writeFileSync(join(a, 'licence-public.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  console.log(`keys written to ${a}; servers need LICENCE_PUBLIC_KEY_FILE=${join(a, 'licence-public.pem')}`);
} else if (cmd === 'sign' && a && b) {
  process.stdout.write(signLicence(JSON.parse(readFileSync(b, 'utf8')) as Licence, readFileSync(a, 'utf8')));
} else {
  console.error('usage: sign-cli.ts keygen <dir> | sign <private.pem> <licence.json>');
  process.exit(1);
}
