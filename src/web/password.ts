// Web sign-in passwords: argon2id through Bun.password. A slow hash is right here (one check per
// sign-in), unlike API keys, which are checked on every request (src/lib/keys.ts).

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 1024;

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `the password must have at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `the password must have at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.trim() !== password) return "the password must not start or end with white space";
  return undefined;
}

/** A password read from standard input: the line ending that `echo` or a terminal adds is not part of it. */
export function passwordFromInput(text: string): string {
  return text.replace(/\r?\n$/, "");
}

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: "argon2id" });
}

let decoy: Promise<string> | undefined;

/**
 * True when the password matches the stored hash. An account without a password (or no account)
 * still costs one full hash check against a decoy, so the answer time does not tell which it was.
 */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH * 4) return false;
  if (!hash) {
    await Bun.password.verify(password, await (decoy ??= hashPassword("decoy password never matched")));
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}
