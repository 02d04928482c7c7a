// The import's progress line: on a terminal only (a log or a pipe gets the final line alone), one line
// rewritten in place at most every 100 ms while documents are checked, then while they are written.

export interface ProgressOut {
  isTTY?: boolean;
  write(text: string): unknown;
}

export function importProgress(out: ProgressOut, now: () => number = Date.now) {
  const shown = out.isTTY === true;
  let last = -Infinity;
  const show = (text: string) => shown && out.write(`\r\x1b[2K${text}`);
  return {
    checked(done: number, total: number): void {
      if (done < total && now() - last < 100) return;
      last = now();
      show(`import: checked ${done} of ${total} documents (${Math.floor((done / total) * 100)}%)`);
    },
    writing(count: number): void {
      show(`import: writing ${count} documents in one transaction…`);
    },
    end(): void {
      show("");
      if (shown) out.write("\r");
    },
  };
}
