export type Dict = { [key: string]: unknown };

/** Deep merge of translation trees; later sources win on leaves. */
export function mergeDicts(...sources: Array<Dict | undefined>): Dict {
  const out: Dict = {};
  for (const src of sources) {
    if (!src) continue;
    for (const [k, v] of Object.entries(src)) {
      const prev = out[k];
      out[k] =
        v && typeof v === 'object' && !Array.isArray(v) && prev && typeof prev === 'object' && !Array.isArray(prev)
          ? mergeDicts(prev as Dict, v as Dict)
          : v && typeof v === 'object' && !Array.isArray(v)
            ? mergeDicts(v as Dict)
            : v;
    }
  }
  return out;
}
