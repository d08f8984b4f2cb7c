/**
 * `npx tsx metadata/src/validate-cli.ts [dir]`: validates the metadata folder and its locale
 * files (every label the metadata uses, in all three languages). Prints a one-line summary,
 * or every fault and exits 1.
 */
import { MetadataError, loadAll, metadataRoot } from './load';

const dir = process.argv[2] ?? metadataRoot;
try {
  const { meta } = loadAll(dir);
  console.log(`metadata ok: ${Object.keys(meta.resources).length} resources, ${Object.keys(meta.enums).length} enums`);
} catch (err) {
  if (!(err instanceof MetadataError)) throw err;
  console.error(err.message);
  process.exit(1);
}
