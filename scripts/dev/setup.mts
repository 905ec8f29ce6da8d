// The setup steps of `npm run dev` (scripts/dev.mts): the package installed into n8n, the
// credentials and example workflows imported, the owner account; each only when needed.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	installedPackageDir,
	login,
	packPackage,
	queryDb,
	setupOwner,
} from '../../e2e/lib/n8n.mts';
import { OPENAI_CREDENTIAL_NAME, openAiCredential } from '../../e2e/lib/agentScripts.mts';
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	loadExamples,
	sandboxCredential,
	withPdfPath,
} from '../../e2e/lib/fixtures.mts';
import { type DevState, say, sha256, show, stage, step, writeState } from './lib.mts';
import { FILE_ENV, OWNER, PDF_PATH, tarballOption, userFolder } from './options.mts';

/** An example workflow (examples/*.json), imported by its id: the fields `npm run dev` reads. */
export type ExampleWorkflow = {
	id: string;
	name: string;
	nodes: Array<{ name: string; type: string; parameters?: Record<string, unknown> }>;
};

export async function installPackage(state: DevState): Promise<void> {
	let tarball = tarballOption && path.resolve(tarballOption);
	let packDir: string | undefined;
	stage(1);
	if (tarball) say(`using ${show(tarball)}, not building`); // set exactly when --tarball is
	if (!tarball) {
		({ tarball } = await step(
			'built and packed the package (npm run build + npm pack)',
			() => packPackage(),
			{ running: 'building and packing (tsc, then npm pack)' },
		));
		packDir = path.dirname(tarball);
	}
	try {
		const hash = sha256(readFileSync(tarball));
		const installed = path.join(installedPackageDir(userFolder), 'package.json');
		stage(2);
		if (state.packageSha256 === hash && existsSync(installed)) {
			say(`package unchanged (tarball sha256 ${hash.slice(0, 12)}…): not reinstalled`);
		} else {
			await step(
				`installed ${path.basename(tarball)} into ${show(userFolder)}/.n8n/nodes`,
				() => installPackageIntoN8n(userFolder, tarball),
				{ running: `npm install of the tarball into ${show(userFolder)}/.n8n/nodes` },
			);
			state.packageSha256 = hash;
			writeState(state);
		}
	} finally {
		if (packDir) rmSync(packDir, { recursive: true, force: true });
	}
}

/** Imports what is missing from the database or changed since the last import (n8n upserts by id). */
export async function importFixtures(
	state: DevState,
	sandboxUrl: string,
	modelBaseUrl: string,
): Promise<ExampleWorkflow[]> {
	const imports = (state.imports ??= { workflows: {} });
	const dbReady = existsSync(path.join(userFolder, '.n8n', 'database.sqlite'));
	const ids = async (table: string): Promise<string[]> =>
		dbReady
			? ((await queryDb(userFolder, `select id from ${table}`)) as Array<{ id: string }>).map(
					(r) => r.id,
				)
			: [];
	const [haveCreds, haveWorkflows] = await Promise.all([
		ids('credentials_entity'),
		ids('workflow_entity'),
	]);

	const credential = sandboxCredential(sandboxUrl);
	const credHash = sha256(JSON.stringify(credential));
	if (!haveCreds.includes(SANDBOX_CREDENTIAL_ID) || imports.credential !== credHash) {
		await step(
			`imported credential "${SANDBOX_CREDENTIAL_NAME}" (client credentials demo-client → ${sandboxUrl})`,
			() => importCredential(userFolder, credential, { env: FILE_ENV }),
			{ running: 'n8n import:credentials (n8n loads itself first: seconds to a minute)' },
		);
		imports.credential = credHash;
		writeState(state);
	} else say(`credential "${SANDBOX_CREDENTIAL_NAME}" already imported`);

	// The AI agent example's model: the scripted OpenAI-compatible server started beside the sandbox.
	const modelCredential = openAiCredential(modelBaseUrl);
	const modelHash = sha256(JSON.stringify(modelCredential));
	if (!haveCreds.includes(modelCredential.id) || imports.modelCredential !== modelHash) {
		await step(
			`imported credential "${OPENAI_CREDENTIAL_NAME}" (Base URL ${modelBaseUrl})`,
			() => importCredential(userFolder, modelCredential, { env: FILE_ENV }),
			{ running: 'n8n import:credentials' },
		);
		imports.modelCredential = modelHash;
		writeState(state);
	} else say(`credential "${OPENAI_CREDENTIAL_NAME}" already imported`);

	const workflows = Object.values(loadExamples()).map(
		(wf) => withPdfPath(wf, PDF_PATH) as ExampleWorkflow,
	);
	const todo = workflows.filter(
		(wf) =>
			!haveWorkflows.includes(wf.id) || imports.workflows[wf.id] !== sha256(JSON.stringify(wf)),
	);
	if (todo.length) {
		await step(
			`imported ${todo.length} example workflow(s): ${todo.map((w) => `"${w.name}"`).join(', ')}`,
			() => importWorkflow(userFolder, todo, { env: FILE_ENV }),
			{ running: `n8n import:workflow (${todo.length} workflows)` },
		);
		for (const wf of todo) imports.workflows[wf.id] = sha256(JSON.stringify(wf));
		writeState(state);
	} else say(`${workflows.length} example workflows already imported`);
	return workflows;
}

export async function ensureOwner(url: string, state: DevState): Promise<string> {
	try {
		const res = await setupOwner(url, OWNER);
		state.owner = { email: OWNER.email, password: OWNER.password };
		writeState(state);
		say(`created the n8n owner account ${OWNER.email}`);
		return res.cookie;
	} catch (err) {
		// Set up on an earlier start: log in with what was recorded then.
		const creds = state.owner ?? OWNER;
		try {
			return (await login(url, creds)).cookie;
		} catch {
			throw new Error(
				`the n8n owner exists but ${creds.email} cannot log in (${String(err.message).split('\n')[0]}); run with --reset for a fresh n8n`,
			);
		}
	}
}
