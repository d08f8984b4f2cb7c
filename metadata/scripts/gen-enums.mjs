#!/usr/bin/env node
// metadata/enums.json and plugins/<id>/metadata/enums.json → metadata/src/enums.generated.ts:
// every enum's values as typed constants
// (`Enums.transportStatus.inbound === 10`), named by the last segment of each value's label
// key, so code names a value instead of re-typing its number. `--check` (run by npm test)
// fails when the checked-in file is not what enums.json generates.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../enums.json', import.meta.url));
const plugins = fileURLToPath(new URL('../../plugins', import.meta.url));
const out = fileURLToPath(new URL('../src/enums.generated.ts', import.meta.url));
// the loader's order: metadata/enums.json, then each plugin's (by id); it refuses duplicates
const enums = JSON.parse(readFileSync(src, 'utf8'));
for (const id of existsSync(plugins) ? readdirSync(plugins).sort() : []) {
  const file = join(plugins, id, 'metadata', 'enums.json');
  if (existsSync(file)) for (const [name, items] of Object.entries(JSON.parse(readFileSync(file, 'utf8')))) enums[name] ??= items;
}
// values plugins add to an enum declared elsewhere (enum-values.json), after every declaration
for (const id of existsSync(plugins) ? readdirSync(plugins).sort() : []) {
  const file = join(plugins, id, 'metadata', 'enum-values.json');
  if (existsSync(file))
    for (const [name, items] of Object.entries(JSON.parse(readFileSync(file, 'utf8')))) if (enums[name]) enums[name] = [...enums[name], ...items];
}

const literal = (v) => (typeof v === 'string' ? `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(v));

const pascal = (name) => name[0].toUpperCase() + name.slice(1);
const lines = [
  '// Generated from metadata/enums.json and plugins/*/metadata/enums.json by metadata/scripts/gen-enums.mjs',
  '// (`npm run gen:enums`). Do not edit: change enums.json and run the generator; npm test checks this file is current.',
  '// One const per enum (`CarrierBindStatusEnum.new`), so a browser bundle keeps only the enums',
  '// it uses, and `Enums` holding them all (`Enums.carrierBindStatus.new`) for server code.',
  '',
];
for (const [name, items] of Object.entries(enums)) {
  const seen = new Set();
  lines.push(`export const ${pascal(name)}Enum = {`);
  for (const it of items) {
    const m = new RegExp(`^enums\\.${name}\\.([A-Za-z_]\\w*)$`).exec(it.label);
    if (!m) throw new Error(`enums.json ${name}: label "${it.label}" must be enums.${name}.<identifier>`);
    if (seen.has(m[1])) throw new Error(`enums.json ${name}: two values named ${m[1]}`);
    seen.add(m[1]);
    lines.push(`  ${m[1]}: ${literal(it.value)},`);
  }
  lines.push('} as const;');
}
lines.push('', 'export const Enums = {');
for (const name of Object.keys(enums)) lines.push(`  ${name}: ${pascal(name)}Enum,`);
lines.push(
  '} as const;',
  '',
  'export type EnumName = keyof typeof Enums;',
  "/** the value type of one enum, e.g. EnumValueOf<'transportStatus'> = 0 | 10 | 20 | … */",
  'export type EnumValueOf<N extends EnumName> = (typeof Enums)[N][keyof (typeof Enums)[N]];',
  '',
);
const text = lines.join('\n');

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(out, 'utf8');
  } catch {
    /* missing counts as stale */
  }
  if (current !== text) {
    console.error(
      'metadata/src/enums.generated.ts is not current with metadata/enums.json and plugins/*/metadata/enums.json: run `npm run gen:enums` and commit it',
    );
    process.exit(1);
  }
  console.log('metadata/src/enums.generated.ts is current');
} else {
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
