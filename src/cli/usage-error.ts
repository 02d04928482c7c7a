/** A command line the program refuses: its message is printed and the process exits with `exitCode`. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
  }
}
