// e2e/lib/ports.mts: the port of a server that binds it only later (n8n, once it has loaded:
// minutes on a busy machine) must stay free until then, though the tiers run side by side and open
// connections all the while. A port the kernel hands out itself (bind to port 0, the local end of
// an outgoing connection) can be taken in between: a tier's n8n once exited with "port already in
// use".
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PORTS = JSON.stringify(path.join(__dirname, '..', '..', 'e2e', 'lib', 'ports.mts'));
const script = (code: string) => ['--import', 'tsx', '--input-type=module', '-e', code];
const run = (code: string) => execFileSync(process.execPath, script(code), { encoding: 'utf8' });
const RANGE = '/proc/sys/net/ipv4/ip_local_port_range';

describe.runIf(existsSync(RANGE))('getFreePort', () => {
	it('gives ports below the range the kernel hands out itself, never one twice', () => {
		const [ephemeralLow] = readFileSync(RANGE, 'utf8').trim().split(/\s+/).map(Number);
		const ports = JSON.parse(
			run(`import { getFreePort } from ${PORTS};
				const ports = [];
				for (let i = 0; i < 50; i++) ports.push(await getFreePort());
				console.log(JSON.stringify(ports));`),
		) as number[];
		expect(new Set(ports).size).toBe(ports.length);
		for (const port of ports) expect(port).toBeLessThan(ephemeralLow);
	});

	it('a port another process reserved is not given out until that process ends', async () => {
		const holder = spawn(
			process.execPath,
			script(`import { getFreePort } from ${PORTS};
				console.log(await getFreePort());
				process.stdin.resume();
				process.stdin.on('end', () => process.exit(0));`),
			{ stdio: ['pipe', 'pipe', 'inherit'] },
		);
		const [line] = (await once(holder.stdout, 'data')) as [Buffer];
		const port = Number(line.toString().trim());
		const reserve = `import { reservePort } from ${PORTS}; console.log(reservePort(${port}));`;
		expect(run(reserve).trim()).toBe('false');
		holder.stdin.end();
		await once(holder, 'exit');
		expect(run(reserve).trim()).toBe('true');
	});

	it('a port whose process was killed outright is given out again', async () => {
		const holder = spawn(
			process.execPath,
			script(`import { getFreePort } from ${PORTS};
				console.log(await getFreePort());
				setInterval(() => {}, 1000);`),
			{ stdio: ['ignore', 'pipe', 'inherit'] },
		);
		const [line] = (await once(holder.stdout, 'data')) as [Buffer];
		const port = Number(line.toString().trim());
		holder.kill('SIGKILL');
		await once(holder, 'exit');
		const reserve = `import { reservePort } from ${PORTS}; console.log(reservePort(${port}));`;
		expect(run(reserve).trim()).toBe('true');
	});
});
