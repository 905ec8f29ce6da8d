// What a started n8n leaves on disk: its type files, its SQLite database (a trigger's saved start
// in it), and the `flatted` format of its execution data.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { N8N_BIN, NODE_BIN } from '../n8n-installation.mts';
import { pollUntil } from './checks.mts';
import { runCommand } from './proc.mts';

type TypeFileName = 'nodes' | 'credentials' | 'node-versions';
type TypeDescription = { name: string; displayName: string; [field: string]: unknown };

/** A type file n8n wrote at its start. */
export function readTypeFile<T = TypeDescription[]>(userFolder: string, name: TypeFileName): T {
	const file = path.join(userFolder, '.cache', 'n8n', 'public', 'types', `${name}.json`);
	const types: T = JSON.parse(readFileSync(file, 'utf8'));
	return types;
}

/** Waits until a type file matches `predicate` (written shortly after start). */
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

export function parseFlatted<T = unknown>(text: string): T {
	const flatted: { parse: (text: string) => T } = cacheRequire('flatted');
	return flatted.parse(text);
}

/** Read-only SQL on n8n's SQLite database (WAL: also while it runs), on the profile's Node. */
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

/**
 * Waits until n8n has saved the AirSign Trigger `triggerName`'s start with the sessions in flight
 * at it read, which its activation poll does: every engine saves the workflow's static data once
 * the activation (that poll included) is over, the start in the node's data or (the poll
 * scheduler) in the global data.
 */
export async function waitForSavedStart(
	userFolder: string,
	workflowId: string,
	triggerName: string,
	{ timeoutMs }: { timeoutMs: number },
): Promise<void> {
	let failedRead = ''; // a read that fails (SQLite busy) is tried again
	await pollUntil(
		async () => {
			const rows = await queryDb<{ staticData: string | null }>(
				userFolder,
				'select staticData from workflow_entity where id = ?',
				[workflowId],
			).catch((error: Error) => {
				failedRead = `; last read: ${error.message}`;
				return [];
			});
			const data = JSON.parse(rows[0]?.staticData ?? 'null') ?? {};
			const saved = [
				data[`node:${triggerName}`],
				data.global?.[`airSignTriggerStart:${triggerName}`],
			];
			return saved.some((state) => state?.cursor && !state.picture);
		},
		() =>
			`workflow ${workflowId}: no trigger start saved (its activation poll never ended)${failedRead}`,
		{ timeoutMs, everyMs: 1_000 },
	);
}
