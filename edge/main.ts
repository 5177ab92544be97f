import { hello } from "@stockbridge/shared";
import { createClient } from "@libsql/client";
const db = createClient({ url: ":memory:" });
console.log(hello, (await db.execute("select 1 as x")).rows);
