import { Database } from "bun:sqlite";

// A bare bun:sqlite write loop: the reference PATCH's read-modify-write transaction with the server's
// pragmas, no HTTP. Prints {"writesPerSecond": n}. Arguments: <database> <userId> <seconds> <id,id,...>

const [path, userId, seconds, idList] = process.argv.slice(2);
const ids = idList.split(",");
const db = new Database(path, { strict: true });
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = NORMAL");
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA foreign_keys = ON");
const read = db.prepare("SELECT body FROM records WHERE user_id = ? AND kind = 'batch' AND id = ?");
const write = db.prepare("UPDATE records SET body = ? WHERE user_id = ? AND kind = 'batch' AND id = ?");
const patch = db.transaction((id: string, og: number) => {
  const row = read.values(userId, id) as string[][];
  write.run(JSON.stringify({ ...JSON.parse(row[0][0]), measuredOg: og }), userId, id);
});

const end = performance.now() + Number(seconds) * 1000;
let n = 0;
while (performance.now() < end) {
  patch.immediate(ids[n % ids.length], 1.04 + (n % 30) / 1000);
  n++;
}
console.log(JSON.stringify({ writesPerSecond: n / Number(seconds) }));
db.close();
