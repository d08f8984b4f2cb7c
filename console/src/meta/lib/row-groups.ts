/** Warehouse-grouped table (metadata `listGroupBy`): rows under one header row per group value. */
type Row = Record<string, unknown>;

export interface RowGroup<T extends Row = Row> {
  key: string;
  value: unknown;
  label: string;
  rows: T[];
}

/** Groups in first-seen order; the label is the ref's `<field>Label` sibling, else the value. */
export function groupRows<T extends Row>(rows: T[], field: string, emptyLabel = '-'): RowGroup<T>[] {
  const groups = new Map<string, RowGroup<T>>();
  for (const r of rows) {
    const value = r[field];
    const key = value === null || value === undefined || value === '' ? '' : String(value);
    let g = groups.get(key);
    if (!g) {
      const label = r[`${field}Label`];
      g = { key, value, label: key === '' ? emptyLabel : String(label ?? value), rows: [] };
      groups.set(key, g);
    }
    g.rows.push(r);
  }
  return [...groups.values()];
}

/** Antd tree data: a header row per group (id `group:<key>`) holding its rows as children. */
export function groupedTreeData<T extends Row>(groups: RowGroup<T>[]): Array<Row & { children: T[] }> {
  return groups.map((g) => ({ id: `group:${g.key}`, __group: g.label, __count: g.rows.length, children: g.rows }));
}
