import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { metadataRoot } from '../src/load';

/** Property names of each `export interface` in types.ts. */
function interfaceProps(): Record<string, string[]> {
  const src = readFileSync(join(metadataRoot, 'src/types.ts'), 'utf8');
  const out: Record<string, string[]> = {};
  for (const m of src.matchAll(/export interface (\w+)[^{]*\{([\s\S]*?)\n\}/g)) {
    out[m[1]] = [...m[2].matchAll(/^ {2}(\w+)\??:/gm)].map((p) => p[1]).sort();
  }
  return out;
}

const schema = (name: string) => JSON.parse(readFileSync(join(metadataRoot, 'schema', `${name}.schema.json`), 'utf8'));
const keys = (o: { properties: Record<string, unknown> }) => Object.keys(o.properties).sort();

describe('JSON Schemas match types.ts', () => {
  const types = interfaceProps();
  const resource = schema('resource');
  const menu = schema('menu');
  const enums = schema('enums');
  const rules = resource.properties.rules;

  it.each([
    ['ResourceDef', resource],
    ['FieldDef', resource.definitions.field],
    ['ListHint', resource.definitions.field.properties.list],
    ['FormHint', resource.definitions.field.properties.form],
    ['RefTarget', resource.definitions.field.properties.ref],
    ['StatusRule', resource.definitions.statusRule],
    ['ResourceRules', rules],
    ['ImportDef', resource.properties.import],
    ['ChildrenDef', resource.properties.children.items],
    ['CallsDef', resource.properties.calls],
    ['ResourceFormDef', resource.properties.form],
    ['FormDefaultsDef', resource.properties.form.properties.defaultsFrom],
    ['FormChoicesDef', resource.properties.form.properties.defaultsFrom.properties.choices.additionalProperties],
    ['MenuItem', menu.definitions.item],
    ['MenuGroup', menu.properties.groups.items],
    ['MenuFile', menu],
    ['EnumValue', enums.additionalProperties.items],
  ])('%s', (name, node) => {
    expect(types[name], `interface ${name} in types.ts`).toBeDefined();
    expect(keys(node)).toEqual(types[name]);
    if (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))) expect(node.additionalProperties).toBe(false);
  });

  it('knows every field type of FieldType', () => {
    const src = readFileSync(join(metadataRoot, 'src/types.ts'), 'utf8');
    const block = src.slice(src.indexOf('export type FieldType'), src.indexOf('export type SearchKind'));
    const declared = [...block.matchAll(/\| '(\w+)'/g)].map((m) => m[1]).sort();
    expect([...resource.definitions.field.properties.type.enum].sort()).toEqual(declared);
  });
});
