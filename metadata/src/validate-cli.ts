/**
 * `npx tsx metadata/src/validate-cli.ts [dir]`: validates the metadata folder and the
 * locale files; prints a one-line summary or every fault, and exits 1 on faults.
 */
import { MetadataError, loadLocales, loadMetadata, metadataRoot } from './load';

const dir = process.argv[2] ?? metadataRoot;
try {
  const meta = loadMetadata(dir);
  loadLocales(dir);
  console.log(`metadata ok: ${Object.keys(meta.resources).length} resources, ${Object.keys(meta.enums).length} enums`);
} catch (err) {
  if (!(err instanceof MetadataError)) throw err;
  console.error(err.message);
  process.exit(1);
}
