// UI tier step 9: before any run, a node's input previews the fields of the node before it, from
// the output schemas. n8n 2.41.3 previews no trigger's fields (docs/compatibility.md); 1.123.81
// (the Community Nodes check) does.
import type { Page } from 'playwright-core';
import { chainWorkflow } from '../lib/fixtures.mts';
import {
	DEV_CREDENTIAL,
	UI_TIMEOUT_MS,
	byTestId,
	closeNode,
	createWorkflow,
	openNode,
	openWorkflow,
} from './editor.mts';

const TRIGGER = 'AirSign Trigger';
const GET = 'Fetch the session';
const NEXT = 'Next step';
/** What the README lists in the trigger's items. */
export const TRIGGER_PATHS = ['.event', '.previousStatus', '.recipient.status'];
export const GET_PATHS = ['.sessionId', '.status', '.recipients[0].status'];

const airSign = (
	name: string,
	type: string,
	parameters: Record<string, unknown>,
	credential: Credential,
) => ({
	name,
	type: `n8n-nodes-airsign.${type}`,
	typeVersion: 1,
	parameters,
	credentials: { airSignApi: credential },
});
const workflow = (name: string, credential: Credential) =>
	chainWorkflow({ name }, [
		airSign(TRIGGER, 'airSignTrigger', { events: ['recipientStatusChanged'] }, credential),
		airSign(
			GET,
			'airSign',
			{
				resource: 'session',
				operation: 'get',
				sessionId: { __rl: true, mode: 'id', value: '={{ $json.sessionId }}' },
			},
			credential,
		),
		{ name: NEXT, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} },
	]);

type Credential = { id: string; name: string };

/** The schema paths seen so far, a Set at window[SEEN]. */
type SeenStore = Record<string, Set<string> | undefined>;

export async function schemaBeforeRun(
	page: Page,
	dev: { n8nUrl: string },
	theme: string,
): Promise<void> {
	const name = `UI tier: fields before a run (${theme})`;
	await inputShows(page, dev.n8nUrl, name, NEXT, GET_PATHS, DEV_CREDENTIAL);
}

export async function schemaBeforeRunOnN8n1(
	page: Page,
	baseUrl: string,
	credential: Credential,
): Promise<void> {
	const [url, cred] = [baseUrl, credential];
	await inputShows(page, url, 'UI tier: the trigger before a run', GET, TRIGGER_PATHS, cred);
	await inputShows(page, url, 'UI tier: Get before a run', NEXT, GET_PATHS, cred);
}

/** A new workflow; the input of `nodeName` shows a preview with a row for each of `paths`. */
async function inputShows(
	page: Page,
	baseUrl: string,
	name: string,
	nodeName: string,
	paths: string[],
	credential: Credential,
): Promise<void> {
	const id = await createWorkflow(page, baseUrl, workflow(name, credential));
	await openWorkflow(page, baseUrl, id);
	const ndv = await openNode(page, nodeName);
	const input = byTestId(ndv, 'ndv-input-panel');
	const schemaMode = byTestId(input, 'ndv-run-data-display-mode').getByText('Schema', {
		exact: true,
	});
	if (await schemaMode.isVisible()) await schemaMode.click();
	await byTestId(input, 'schema-preview-warning').first().waitFor();
	await schemaShows(page, paths);
	await closeNode(page);
}

/**
 * Waits until the input's schema view has shown a row for each path. It renders only the rows in
 * sight: each look that misses one scrolls on by a screen (back to the top after the end).
 */
async function schemaShows(page: Page, expected: string[]): Promise<void> {
	const SEEN = '__airsignSchemaPaths';
	try {
		await page.waitForFunction(
			({ expected, SEEN }) => {
				const panel = document.querySelector('[data-test-id="ndv-input-panel"]');
				const seen = ((window as unknown as SeenStore)[SEEN] ??= new Set());
				panel
					?.querySelectorAll<HTMLElement>('[data-path]')
					.forEach((el) => seen.add(el.dataset.path as string));
				if (expected.every((p) => seen.has(p))) return true;
				let scroller = panel?.querySelector('[data-test-id="run-data-schema-item"]');
				while (scroller && scroller.scrollHeight <= scroller.clientHeight)
					scroller = scroller.parentElement;
				if (scroller)
					scroller.scrollTop =
						scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1
							? 0
							: scroller.scrollTop + Math.max(50, scroller.clientHeight - 40);
				return false;
			},
			{ expected, SEEN },
			{ polling: 'raf', timeout: UI_TIMEOUT_MS },
		);
	} catch (error) {
		const seen = await page.evaluate(
			(SEEN) => [...((window as unknown as SeenStore)[SEEN] ?? [])],
			SEEN,
		);
		throw new Error(
			`the schema view before a run lacks ${expected.filter((p) => !seen.includes(p)).join(', ')}; it showed ${seen.join(' ')} (${error.message.split('\n')[0]})`,
		);
	} finally {
		await page.evaluate((SEEN) => delete (window as unknown as SeenStore)[SEEN], SEEN);
	}
}
