// What the e2e tier and `npm run dev` put into n8n: the packed package, the sandbox credential,
// the example workflows (examples/*.json) and a small sample PDF for the upload example.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../n8n-installation.mts';
import { packPackage } from './n8nPackage.mts';

export const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');

/** A node of a workflow as n8n exports and imports it (the fields the tier reads; others pass through). */
export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion?: number;
	/** [x, y] on the canvas. */
	position?: number[];
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	[field: string]: unknown;
}

/** A workflow as n8n exports and imports it (examples/*.json, `n8n import:workflow`, REST). */
export interface Workflow {
	/** Needed to import and execute it by id. */
	id?: string;
	name: string;
	nodes: WorkflowNode[];
	connections?: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[field: string]: unknown;
}

/** A workflow that has its id (every examples/*.json has one). */
export type WorkflowWithId = Workflow & { id: string };

/** A node for chainWorkflow: it adds the id and the position. */
export type ChainNode = {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	[field: string]: unknown;
};

/** `nodes` in a row, each one's main output into the next; `nodeId(n)` names the n-th (from 1). */
export function chainWorkflow<H extends { name: string }>(
	head: H,
	nodes: ChainNode[],
	nodeId: (n: number) => string = () => randomUUID(),
) {
	return {
		...head,
		settings: { executionOrder: 'v1' },
		nodes: nodes.map((n, i): WorkflowNode => ({ id: nodeId(i + 1), position: [220 * i, 0], ...n })),
		connections: Object.fromEntries(
			nodes
				.slice(1)
				.map((n, i) => [nodes[i].name, { main: [[{ node: n.name, type: 'main', index: 0 }]] }]),
		),
	};
}

/** A credential as `n8n import:credentials` takes it: plain `data` (n8n encrypts it) or encrypted text. */
export interface CredentialJson {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown> | string;
}

/** `given` (a --tarball) or a fresh pack, checked for the files "n8n" names in package.json. */
export async function packageTarball(given?: string) {
	const packed = given
		? {
				tarball: path.resolve(given),
				files: execFileSync('tar', ['-tzf', given], { encoding: 'utf8' })
					.split('\n')
					.filter(Boolean)
					.map((f) => f.replace(/^package\//, '')),
			}
		: await packPackage();
	const { n8n } = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	const missing = [...n8n.credentials, ...n8n.nodes].filter((f) => !packed.files.includes(f));
	if (missing.length)
		throw new Error(`tarball lacks files declared in package.json "n8n": ${missing.join(', ')}`);
	const cleanup = () =>
		given || rmSync(path.dirname(packed.tarball), { recursive: true, force: true });
	return { ...packed, cleanup };
}

/** The credential every example refers to (id and name as in examples/*.json). */
export const SANDBOX_CREDENTIAL_ID = 'AirSignSandbox01';
export const SANDBOX_CREDENTIAL_NAME = 'AirSign (local sandbox)';

/** The n8n owner account `npm run dev` creates (the UI tier logs in with it too). */
export const DEV_OWNER = {
	email: 'dev@example.com',
	password: 'AirSign-dev-1',
	firstName: 'AirSign',
	lastName: 'Developer',
};

/** The path the upload example reads in the repository (n8n's Docker image default file folder). */
export const EXAMPLE_PDF_PATH = '/home/node/.n8n-files/contract.pdf';

/** Client credentials of the sandbox's demo organisation: n8n fetches the token itself (preAuthentication). */
export function sandboxCredential(
	baseUrl: string,
): CredentialJson & { data: Record<string, string> } {
	return {
		id: SANDBOX_CREDENTIAL_ID,
		name: SANDBOX_CREDENTIAL_NAME,
		type: 'airSignApi',
		data: {
			authentication: 'clientCredentials',
			clientId: 'demo-client',
			clientSecret: 'demo-secret',
			baseUrl,
		},
	};
}

/** Every examples/*.json, by file name (without .json): { 'upload-pdf': workflow, ... }. */
export function loadExamples(): Record<string, WorkflowWithId> {
	const files = readdirSync(EXAMPLES_DIR).filter((f) => f.endsWith('.json'));
	const read = (f: string) => JSON.parse(readFileSync(path.join(EXAMPLES_DIR, f), 'utf8'));
	return Object.fromEntries(files.sort().map((f) => [f.replace(/\.json$/, ''), read(f)]));
}

/** A copy of a workflow with the upload example's PDF path replaced (any node parameter equal to it). */
export function withPdfPath<W extends Workflow>(workflow: W, pdfPath: string): W {
	const copy = structuredClone(workflow);
	for (const node of copy.nodes)
		if (node.parameters?.fileSelector === EXAMPLE_PDF_PATH) node.parameters.fileSelector = pdfPath;
	return copy;
}

/** A valid one-page PDF (about 600 bytes, a correct xref table) saying `text`. */
export function samplePdf(text = 'AirSign sample contract'): Buffer {
	const safe = text.replace(/[\\()]/g, '\\$&');
	const stream = `BT /F1 18 Tf 72 720 Td (${safe}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
		`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
	const offsets: number[] = [];
	objects.forEach((obj, i) => {
		offsets.push(Buffer.byteLength(body, 'latin1'));
		body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
	});
	const xrefAt = Buffer.byteLength(body, 'latin1');
	body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
	body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
	return Buffer.from(body, 'latin1');
}
