/** Fit padding (px) that keeps fitted markers out from under the bottom-left legend. */
export interface Padding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

const BASE = 40;
const GAP = 12;

/**
 * The legend covers the map's bottom-left corner; pushing the fitted bounds past it on one
 * axis is enough. The axis chosen costs the smaller share of the map (a tall legend on a wide
 * map: from the left; a wide one on a phone: from the bottom), and never more than half of it.
 */
export function legendPadding(map: { width: number; height: number } | undefined, legend: { width: number; height: number } | undefined): Padding {
  const pad = { top: BASE, right: BASE, bottom: BASE, left: BASE };
  if (!map || !legend || !legend.width || !legend.height || !map.width || !map.height) return pad;
  const left = legend.width + GAP * 2;
  const bottom = legend.height + GAP * 2;
  if (left / map.width <= bottom / map.height) pad.left = Math.min(Math.max(BASE, left), map.width / 2);
  else pad.bottom = Math.min(Math.max(BASE, bottom), map.height / 2);
  return pad;
}
