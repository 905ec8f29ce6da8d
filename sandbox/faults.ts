import type { Fault } from './types';

const KINDS = [
	'latency',
	'status',
	'drop',
	'dropAfter',
	'malformed',
	'rateLimit',
	'answer',
	'mangle',
];

interface ActiveFault extends Fault {
	count: number;
	skip: number;
}

/**
 * Injected failures for API requests. Each fault lets `skip` matching requests
 * through, acts on the next `count`, then disappears.
 */
export class FaultList {
	private faults: ActiveFault[] = [];

	add(fault: Fault): void {
		if (!fault || !KINDS.includes(fault.kind))
			throw new Error(`Unknown fault kind: ${String(fault?.kind)}`);
		this.faults.push({ ...fault, count: fault.count ?? 1, skip: fault.skip ?? 0 });
	}

	clear(): void {
		this.faults = [];
	}

	get active(): Fault[] {
		return this.faults.map((f) => ({ ...f }));
	}

	/**
	 * Faults that act on this request, in the order they were injected. Latency
	 * faults come along with at most one answering fault, which ends the list.
	 */
	take(method: string, path: string): Fault[] {
		const acting: Fault[] = [];
		for (const fault of [...this.faults]) {
			if (fault.method !== undefined && fault.method.toUpperCase() !== method.toUpperCase())
				continue;
			if (fault.path !== undefined && !path.startsWith(fault.path)) continue;
			if (fault.skip > 0) {
				fault.skip -= 1;
				continue;
			}
			fault.count -= 1;
			if (fault.count <= 0) this.faults = this.faults.filter((f) => f !== fault);
			acting.push({ ...fault });
			if (fault.kind !== 'latency' && fault.kind !== 'dropAfter' && fault.kind !== 'mangle') break;
		}
		return acting;
	}
}
