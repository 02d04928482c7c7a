// Isomerisation slows as the wort cools. The hosted app stores, per equipment
// profile, the aroma-hop utilisation it derives from the hop-stand temperature:
// 0.5 at 90.2 °C, 0.23 at 80 °C, 0.15 at 75 °C (seen in real exports). Those points
// and 1.0 at 100 °C form the table; between points the utilisation is interpolated
// on a log scale (isomerisation is an Arrhenius-like rate), and below 75 °C the
// 75–80 °C slope continues towards zero.
const TABLE: ReadonlyArray<readonly [number, number]> = [
  [75, 0.15],
  [80, 0.23],
  [90.2, 0.5],
  [100, 1],
];

/** Share of the boiling-wort utilisation that a hop gets at `tempC`. */
export function utilizationAtTemperature(tempC: number): number {
  if (!Number.isFinite(tempC)) return 0;
  if (tempC >= 100) return 1;
  let lo = TABLE[0]!;
  let hi = TABLE[1]!;
  for (let i = 1; i < TABLE.length; i++) {
    if (tempC <= TABLE[i]![0]) {
      lo = TABLE[i - 1]!;
      hi = TABLE[i]!;
      break;
    }
  }
  const slope = Math.log(hi[1] / lo[1]) / (hi[0] - lo[0]);
  const u = lo[1] * Math.exp(slope * (tempC - lo[0]));
  return Number.isFinite(u) ? Math.max(0, Math.min(1, u)) : 0;
}
