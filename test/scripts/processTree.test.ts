// e2e/lib/proc.mts: a test script stopped by a signal (npm run check stopping a tier) leaves no
// process behind, not even one that a child of its own started in a group of its own (as
// `npm run dev` starts n8n and the sandbox, and the Community Nodes check n8n and Verdaccio).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';

const PROC = path.join(__dirname, '..', '..', 'e2e', 'lib', 'proc.mts');

// The tier: starts a child server with startProcess, as the UI tier starts `npm run dev`; that
// child starts a grandchild in a process group of its own and prints both pids. On SIGTERM the
// tier exits at once, as e2e/lib/n8nServer.mts makes every test script do.
const TIER = `
import { startProcess } from ${JSON.stringify(PROC)};
process.once('SIGTERM', () => process.exit(130));
const child = startProcess(process.execPath, ['-e', ${JSON.stringify(`
	const { spawn } = require('node:child_process');
	const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
	console.log('pids ' + process.pid + ' ' + grandchild.pid);
	setInterval(() => {}, 1000);
`)}], { env: process.env, inherit: true });
void child;
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
	it('a SIGTERM ends the script, its child and the child’s own detached child', async () => {
		const tier = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', TIER], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let out = '';
		const pids = await new Promise<number[]>((resolve, reject) => {
			tier.stdout.on('data', (chunk: Buffer) => {
				out += chunk;
				const match = /pids (\d+) (\d+)/.exec(out);
				if (match) resolve([Number(match[1]), Number(match[2])]);
			});
			tier.once('exit', (code) => reject(new Error(`the tier exited first (${code}): ${out}`)));
		});
		try {
			expect(pids.map(running)).toEqual([true, true]);
			const exited = once(tier, 'exit');
			tier.kill('SIGTERM');
			expect((await exited)[0]).toBe(130);
			// SIGKILL was sent before the tier exited; the kernel ends them as it delivers it (the
			// bound only stops a test that would otherwise wait for ever)
			for (const t0 = Date.now(); pids.some(running) && Date.now() - t0 < 60_000; )
				await new Promise((r) => setTimeout(r, 50));
			expect(pids.map(running)).toEqual([false, false]);
		} finally {
			for (const pid of pids.filter(running)) process.kill(pid, 'SIGKILL'); // the test failed
		}
	});
});
