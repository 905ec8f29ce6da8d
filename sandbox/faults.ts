import type { ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import { apiError, type Reply } from './http';
import { rateLimitHeaders } from './rateLimit';
import { FAULT_KINDS, type Fault, type FuzzedAnswer } from './types';

interface ActiveFault extends Fault {
	count: number;
	skip: number;
}

/** Injected failures: each lets `skip` matching requests by, acts on `count`, then disappears. */
export class FaultList {
	private faults: ActiveFault[] = [];

	add(fault: Fault): void {
		if (!fault || !FAULT_KINDS.includes(fault.kind))
			throw new Error(`Unknown fault kind: ${String(fault?.kind)}`);
		this.faults.push({ ...fault, count: fault.count ?? 1, skip: fault.skip ?? 0 });
	}

	clear(): void {
		this.faults = [];
	}

	get active(): Fault[] {
		return this.faults.map((f) => ({ ...f }));
	}

	/** This request's faults in order: latency, dropAfter, mangle, and at most one answering. */
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

/** The answer of a `malformed`, `rateLimit` or `status` fault. */
export function faultReply(ctx: SandboxContext, fault: Fault, publicPath: boolean): Reply {
	if (fault.kind === 'malformed')
		return { status: 200, rawBody: '{"sessions": [{"sessionId": "<html>Bad Gateway' };
	if (fault.kind === 'rateLimit') {
		const retryAfter = fault.retryAfter ?? 1;
		const limit = publicPath ? ctx.config.publicRateLimitPerHour : ctx.config.rateLimitPerHour;
		return apiError(429, 'RATE_LIMITED', 'Rate limit exceeded (injected fault)', {
			headers: {
				...rateLimitHeaders(limit, 0, ctx.clock.now() + retryAfter * 1000),
				'Retry-After': String(retryAfter),
			},
		});
	}
	const status = fault.status ?? 500;
	const message = fault.message ?? 'Injected fault';
	// AirSign's docs do not show the error body: a status may come with no code at all.
	if (fault.code === null) return { status, body: { message } };
	return apiError(status, fault.code ?? 'INTERNAL', message);
}

/** Fuzzing faults' answer (test/fuzz): `answer` replaces AirSign's, `mangle` edits `real`. */
export function fuzzedReply(fault: Fault, real?: Reply) {
	const answer: FuzzedAnswer = fault.answer ?? {};
	let body = answer.body;
	if (body === undefined && real !== undefined) {
		let value: unknown = real.rawBody ?? structuredClone(real.body);
		for (const edit of answer.edits ?? []) value = applyEdit(value, edit);
		body =
			real.rawBody !== undefined && !answer.edits?.length
				? real.rawBody
				: value === undefined
					? ''
					: (JSON.stringify(value) ?? '');
	}
	let bytes = Buffer.from(body ?? '', 'utf8');
	if (answer.truncateAt !== undefined) bytes = bytes.subarray(0, Math.max(0, answer.truncateAt));
	return {
		status: answer.status ?? real?.status ?? 200,
		headers: { ...real?.headers, ...answer.headers },
		bytes,
	};
}

function applyEdit(root: unknown, edit: NonNullable<FuzzedAnswer['edits']>[number]): unknown {
	if (edit.path.length === 0) return edit.delete ? undefined : edit.value;
	let parent = root as Record<string | number, unknown> | null;
	for (const step of edit.path.slice(0, -1)) {
		if (parent === null || typeof parent !== 'object') return root;
		parent = parent[step] as Record<string | number, unknown> | null;
	}
	if (parent === null || typeof parent !== 'object') return root;
	const last = edit.path[edit.path.length - 1];
	if (edit.delete) delete parent[last];
	else parent[last] = edit.value;
	return root;
}

/** Writes a fuzzed reply: its headers replace the sandbox's (any case), `date` sets or removes Date. */
export function writeFuzzedReply(
	res: ServerResponse,
	reply: ReturnType<typeof fuzzedReply>,
	answer: FuzzedAnswer = {},
) {
	if (answer.date === null) {
		res.removeHeader('Date');
		res.sendDate = false;
	} else if (answer.date !== undefined) {
		res.setHeader('Date', answer.date);
	}
	const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
	for (const [name, value] of Object.entries(reply.headers)) headers[name.toLowerCase()] = value;
	headers['content-length'] = String(reply.bytes.length);
	for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
	res.writeHead(reply.status);
	res.end(reply.bytes);
}
