import { Database } from "bun:sqlite";

// A bare bun:sqlite insert loop: the rows an import of the file writes (each batch's record and its
// readings), read and parsed as the command line does, in one transaction, nothing checked or
// derived beyond the columns the table needs. Arguments: <database> <userId> <export.json>

const [path, userId, file] = process.argv.slice(2);
const db = new Database(path, { strict: true });
db.exec("PRAGMA journal_mode = WAL");
db.exec("PRAGMA synchronous = NORMAL");
db.exec("PRAGMA busy_timeout = 5000");
const doc = JSON.parse(await Bun.file(file).text()) as { batches: Array<Record<string, unknown> & { readings?: Array<Record<string, unknown>> }> };
const record = db.prepare(`INSERT INTO records (user_id, kind, id, summary, status, inventory, key_brew_date, key_name, key_batch_no, body, ordered)
  VALUES (?, 'batch', ?, ?, ?, NULL, ?, ?, ?, ?, 1)`);
const list = db.prepare("INSERT INTO reading_lists (user_id, batch_id) VALUES (?, ?)");
const reading = db.prepare("INSERT INTO readings (user_id, batch_id, at, seq, timed, body) VALUES (?, ?, ?, ?, 1, ?)");
db.transaction(() => {
  for (const { readings, ...batch } of doc.batches) {
    const id = String(batch._id);
    const body = JSON.stringify(batch);
    record.run(userId, id, JSON.stringify({ _id: id, name: batch.name }), String(batch.status), `n${id}`, `t${id}`, `n${id}`, body);
    if (!readings) continue;
    list.run(userId, id);
    readings.forEach((r, seq) => reading.run(userId, id, Number(r.time), seq, JSON.stringify(r)));
  }
}).immediate();
db.close();
