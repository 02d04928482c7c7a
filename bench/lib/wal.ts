import { closeSync, fstatSync, openSync, readSync } from "node:fs";

// SQLite's write-ahead log read as it lies on disk (https://www.sqlite.org/fileformat.html#the_write_ahead_log):
// a 32-byte header (its page size, big-endian, at byte 8), then frames, each a 24-byte header (its
// page's number first) and the page. A frame cut short at the end (a write under way) is not counted.

/** The page of every frame in a WAL file, in order; none for an empty or missing file. */
export function walPages(file: string): number[] {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return [];
    throw e;
  }
  try {
    const size = fstatSync(fd).size;
    if (size < 32) return [];
    const head = Buffer.alloc(32);
    readSync(fd, head, 0, 32, 0);
    const pageSize = head.readUInt32BE(8);
    const pages: number[] = [];
    for (let at = 32; at + 24 + pageSize <= size; at += 24 + pageSize) {
      readSync(fd, head, 0, 4, at);
      pages.push(head.readUInt32BE(0));
    }
    return pages;
  } finally {
    closeSync(fd);
  }
}
