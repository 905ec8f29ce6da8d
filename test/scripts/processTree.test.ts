// e2e/lib/proc.mts: a test script stopped by a signal (npm run check stopping a tier) leaves no
// process behind, not even one that a child of its own started in a group of its own (as
// `npm run dev` starts n8n and the sandbox, and the Community Nodes check n8n and Verdaccio).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

const PROC = JSON.stringify(path.join(__dirname, '..', '..', 'e2e', 'lib', 'proc.mts'));
const script = (code: string) => ['--import', 'tsx', '--input-type=module', '-e', code];

// The tier starts a child as the UI tier starts `npm run dev`; the child starts a grandchild in a
// group of its own and prints the three pids. On SIGTERM the tier exits at once (the default).
const TIER = `
import { startProcess } from ${PROC};
startProcess(process.execPath, ['-e', ${JSON.stringify(`
	const { spawn } = require('node:child_process');
	const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
	console.log('pids ' + process.ppid + ' ' + process.pid + ' ' + grandchild.pid);
	setInterval(() => {}, 1000);
`)}], { env: process.env, inherit: true });
`;
// npm run check's way: the tier as a job, stopped on SIGTERM with the signal (SIGKILL 30 s later)
const CHECK = `
import { onStopSignal, startProcess } from ${PROC};
const tier = startProcess(process.execPath, ${JSON.stringify(script(TIER))}, { env: process.env, inherit: true });
onStopSignal(async (signal) => {
	console.log('tier stopped: exit ' + (await tier.stop(30_000, signal)).code);
	return 130;
});
`;

/** Gone, or a zombie its new parent has not reaped yet: either way it runs no more. */
function running(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		return false;
	}
}

describe('e2e/lib/proc.mts: what a test script started ends with it', () => {
	it.each([
		['the script', TIER, ''],
		['npm run check, its tier (stopped with the signal)', CHECK, 'tier stopped: exit 130'],
	])('a SIGTERM ends %s, its child and the child’s own detached child', async (_, code, said) => {
		const tier = spawn(process.execPath, script(code), { stdio: ['ignore', 'pipe', 'inherit'] });
		let out = '';
		const pids = await new Promise<number[]>((resolve, reject) => {
			tier.stdout.on('data', (chunk: Buffer) => {
				out += chunk;
				const match = /pids (\d+) (\d+) (\d+)/.exec(out);
				if (match) resolve(match.slice(1).map(Number));
			});
			tier.once('exit', (code) => reject(new Error(`the tier exited first (${code}): ${out}`)));
		});
		try {
			expect(pids.map(running)).toEqual([true, true, true]);
			const exited = once(tier, 'exit');
			tier.kill('SIGTERM');
			expect((await exited)[0]).toBe(130);
			expect(out).toContain(said); // a tier stopped gracefully exits as a SIGTERM makes it
			// SIGKILL was sent before the tier exited; the kernel ends them as it delivers it (the
			// bound only stops a test that would otherwise wait for ever)
			for (const t0 = Date.now(); pids.some(running) && Date.now() - t0 < 60_000; )
				await new Promise((r) => setTimeout(r, 50));
			expect(pids.map(running)).toEqual([false, false, false]);
		} finally {
			for (const pid of pids.filter(running)) process.kill(pid, 'SIGKILL'); // the test failed
		}
	});
});
