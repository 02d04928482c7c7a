// Calories and carbohydrates per serving.

/**
 * Serving size: 100 ml, the basis of the app's stored nutrition figures (its values
 * equal the 12 US fl oz formulas below divided by 3.55).
 */
export const SERVING_ML = 100;
const PER_12_OZ_TO_SERVING = SERVING_ML / 355;

export interface Nutrition {
  calories: { total: number; alcohol: number; carbs: number; kJ: number };
  carbs: { total: number };
}

/**
 * Alcohol kcal = 1881.22 × FG × (OG − FG) / (1.775 − OG); carbohydrate kcal =
 * 3550 × FG × (0.1808 × OG + 0.8192 × FG − 1.0004), both per 12 fl oz, scaled to the
 * serving; carbohydrate grams at 4 kcal per gram; 4.184 kJ per kcal.
 */
export function nutrition(og: number, fg: number): Nutrition {
  const alcohol = og < 1.775 ? Math.max(0, (1881.22 * fg * (og - fg)) / (1.775 - og)) * PER_12_OZ_TO_SERVING : 0;
  const carbs = Math.max(0, 3550 * fg * (0.1808 * og + 0.8192 * fg - 1.0004)) * PER_12_OZ_TO_SERVING;
  const total = alcohol + carbs;
  return {
    calories: { total, alcohol, carbs, kJ: total * 4.184 },
    carbs: { total: carbs / 4 },
  };
}
