// Ports for servers this process starts or hands to a child. Not port 0: n8n binds its port only
// once it has loaded (minutes on a busy machine), and the kernel may give a port it handed out (to
// a bind to port 0, or as the local end of an outgoing connection) to another socket in between;
// a tier's n8n once exited with "port already in use". So ports come from below the kernel's own
// range, each reserved by a file in the temporary folder against the other tiers side by side,
// removed when its process exits (or by the next caller, if a process killed outright left it).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const RESERVED = path.join(os.tmpdir(), 'airsign-ports');
const mine = new Set<string>();
process.on('exit', () => mine.forEach((file) => rmSync(file, { force: true })));

/** Where the kernel's ephemeral range starts (Linux); 32768, its default, elsewhere. */
function ephemeralLow(): number {
	try {
		return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
	} catch {
		return 32_768;
	}
}

/** A TCP port free now, that the kernel will not hand out and no other caller gets while this process runs. */
export async function getFreePort(): Promise<number> {
	const high = ephemeralLow();
	const low = Math.max(1_024, high - 10_000);
	for (let attempt = 0; attempt < 1_000; attempt++) {
		const port = low + Math.floor(Math.random() * (high - low));
		if (!reservePort(port)) continue;
		if (await bindable(port)) return port;
		release(port);
	}
	throw new Error(`no free port between ${low} and ${high - 1}`);
}

/** True if this call reserved `port` for this process; false if a running process has it. */
export function reservePort(port: number): boolean {
	mkdirSync(RESERVED, { recursive: true });
	const file = path.join(RESERVED, String(port));
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			writeFileSync(file, String(process.pid), { flag: 'wx' });
			mine.add(file);
			return true;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			if (!ownerGone(file)) return false;
			// Left by a process killed outright (its exit handler never ran).
			rmSync(file, { force: true });
		}
	}
	return false;
}

function ownerGone(file: string): boolean {
	let pid: number;
	try {
		pid = Number(readFileSync(file, 'utf8'));
	} catch {
		return true;
	}
	// An empty file is one being written.
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return false;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'ESRCH';
	}
}

function release(port: number): void {
	const file = path.join(RESERVED, String(port));
	mine.delete(file);
	rmSync(file, { force: true });
}

/** Free on every address, as n8n binds it. */
function bindable(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createServer();
		server.once('error', () => resolve(false));
		server.listen(port, () => server.close(() => resolve(true)));
	});
}
