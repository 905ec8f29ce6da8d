// What a started n8n leaves on disk, read directly: its type files, its SQLite database, and the
// `flatted` format it stores execution data in. Re-exported by e2e/lib/n8n.mts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { N8N_BIN, NODE_BIN } from '../n8n-installation.mts';
import { pollUntil } from './checks.mts';
import { runCommand } from './proc.mts';

type TypeFileName = 'nodes' | 'credentials' | 'node-versions';
/** One entry of types/nodes.json or types/credentials.json (a node or credential description). */
type TypeDescription = { name: string; displayName: string; [field: string]: unknown };

/** Type files written by a running (or previously started) n8n: `$userFolder/.cache/n8n/public/types/`. */
export function readTypeFile<T = TypeDescription[]>(userFolder: string, name: TypeFileName): T {
	const file = path.join(userFolder, '.cache', 'n8n', 'public', 'types', `${name}.json`);
	const types: T = JSON.parse(readFileSync(file, 'utf8'));
	return types;
}

/** Waits until the type files list `predicate`-matching entries (they are written shortly after start). */
export async function waitForTypes<T = TypeDescription[]>(
	userFolder: string,
	name: TypeFileName,
	predicate: (types: T) => boolean,
	{ timeoutMs = 120_000 }: { timeoutMs?: number } = {},
): Promise<T> {
	let last: T | undefined;
	return pollUntil(
		() => {
			try {
				last = readTypeFile<T>(userFolder, name);
				return predicate(last) && last;
			} catch {
				return false; // not written yet
			}
		},
		() =>
			`types/${name}.json never matched (has ${Array.isArray(last) ? last.length : 'no'} entries)`,
		{ timeoutMs, everyMs: 250 },
	);
}

const cacheRequire = createRequire(path.join(N8N_BIN, '..', '..', 'package.json'));

/** Execution data is stored and served in `flatted` format; this turns it back into the IRun data. */
export function parseFlatted<T = unknown>(text: string): T {
	const flatted: { parse: (text: string) => T } = cacheRequire('flatted');
	return flatted.parse(text);
}

/**
 * Read-only SQL against the instance's SQLite database ($userFolder/.n8n/database.sqlite), run by
 * the profile's Node (the sqlite3 add-on is built for it). Works while n8n runs (WAL mode).
 * Useful tables: execution_entity (id, mode, status, workflowId), execution_data (data: flatted),
 * workflow_entity (active, activeVersionId, staticData: JSON with "node:<node name>" keys).
 */
export async function queryDb<Row = Record<string, unknown>>(
	userFolder: string,
	sql: string,
	params: unknown[] = [],
): Promise<Row[]> {
	const script = `const s=require('sqlite3');const db=new s.Database(process.argv[1],s.OPEN_READONLY);
db.all(process.argv[2],JSON.parse(process.argv[3]),(e,r)=>{if(e){console.error(e.message);process.exit(1)}process.stdout.write(JSON.stringify(r));db.close()})`;
	const { stdout } = await runCommand(
		NODE_BIN,
		['-e', script, path.join(userFolder, '.n8n', 'database.sqlite'), sql, JSON.stringify(params)],
		{
			cwd: path.dirname(cacheRequire.resolve('sqlite3/package.json')),
			env: { ...process.env, NODE_PATH: path.join(N8N_BIN, '..', '..', '..') },
			timeoutMs: 120_000,
			label: `sqlite: ${sql}`,
		},
	);
	const rows: Row[] = JSON.parse(stdout);
	return rows;
}
