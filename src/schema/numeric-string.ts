/** A decimal number written as a string (".860", "6.3"), as real water profiles carry them. */
export const NUMERIC_STRING_PATTERN = "^-?(\\d+(\\.\\d*)?|\\.\\d+)$";
