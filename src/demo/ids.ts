// Fixed identifiers: a demo account looks the same on every server, so links
// and examples in the documentation stay valid.
export const BATCH_IDS = {
  archived: "KBJHFhMpKYolVviUsb6Q",
  completed: "L4PC6TMF3ctIJnlgolcA",
  conditioning: "jq4nOtGqFhsTitF9Cg2N",
  fermenting: "GN64YRD9DnvMuRQPGCCH",
  brewing: "TpUU9pENyYyEFW8yZcvv",
  planning: "1aDmTeewbnE5yUY6In0S",
} as const;

export const RECIPE_IDS = {
  paleAle: "2OX1Q3HqpdVV9RJnyJ8M",
  pilsner: "ZNl1kEqDEoq9NxmC1e0n",
  stout: "9LalSeF3SyYXFRYCbsiq",
} as const;

export const TRACKER_IDS = {
  fermenting: "YULtayIcvUgMAeTkovXj",
  brewing: "VOlAHKzEIhm8Gbrila69",
} as const;

export const FERMENTABLE_IDS = {
  paleAleMalt: "vpMCnEjmsjTk6guymgOK",
  pilsnerMalt: "sQuoDckkzpKGDiYowWMg",
  marisOtter: "aKepQQrFCLiq92BT4AOy",
  munich: "wTI734BN7jzWqTdE3uIt",
  crystal40: "1gn1ZrF8vauUKbcPSSAp",
  carapils: "SLPbLXeU8k0lKEOiJSTZ",
  acidulated: "J6mcNM0mM3SxwDMgfBHg",
  flakedBarley: "qK2kbBBsjurjsUtyOpHB",
  roastedBarley: "Cu5ILi0GAtbfFEGXspwk",
} as const;

export const HOP_IDS = {
  magnum: "vLwDgXHeueFnkxbz5hNJ",
  cascade: "wToQl8O6APHwG7LDEZfJ",
  centennial: "H00iUprq7w7uSze0frUH",
  mittelfrueh: "snBccFAwfOen0ARVLMpe",
  tettnang: "EJNFR96AzXTnd6KNQ9tA",
  goldings: "jsfDuvRksrc7IT3cKqbe",
} as const;

export const MISC_IDS = {
  gypsum: "ze8EY5ArS8RcKiFVBa8K",
  calciumChloride: "gfvJ0HkwFAnUpV1hPZp5",
  lacticAcid: "r7ectQHfUj9aYV0EaSYk",
  whirlfloc: "J9ntIYgbU1qKwrBN58kx",
  yeastNutrient: "5J4aB16B1Cc9HVfvOZIj",
} as const;

export const YEAST_IDS = {
  us05: "i97cUzIQtEHITErAO2mD",
  w3470: "Sbo7Xhe8lvNQwE1hmpXA",
  s04: "Cf6FvsagcDoUjLauyE4h",
  nottingham: "g8CnKhGJChxe1Dpw8bUV",
} as const;

/** Profiles and styles nested in recipes. */
export const PROFILE_IDS = {
  equipment: "wwLcXr4zGXlqhSqHqqfr",
  mashSingle: "zlfMbmh0UFJS6Y1oPKSf",
  mashStep: "kMBrW9410zEhNk0mZPNM",
  fermentationAle: "rD682jqSEUjLBo9UVYiu",
  fermentationLager: "r5rP1VRUF3AqZnSQFVXZ",
  waterSource: "qlXz7k6uZjZDS6zmtogH",
  waterPale: "mHGLVwIiSyC24gWOJVSd",
  waterPilsner: "Jrj6GC44wzm1yXSitlKO",
  waterStout: "tf3U3h2F5JNU1kKXG8pG",
  stylePaleAle: "p9NtT1SKbYKxo4oIZoRG",
  stylePilsner: "TdosCOMRNhDqbL9NEq1R",
  styleStout: "xoWK8Qh9dvzhfiLOGZ1D",
} as const;
