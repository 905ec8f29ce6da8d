// UI tier steps 5, 8 and 9, the AirSign Trigger in the editor: Fetch Test Event, its events; and
// before any run, a node's input previews the fields of the node before it, from the output
// schemas. n8n 2.41.3 previews no trigger's fields (docs/compatibility.md); 1.123.81 (the Community
// Nodes check) does.
import type { Page } from 'playwright-core';
import { chainWorkflow } from '../lib/fixtures.mts';
import {
	DEV_CREDENTIAL,
	byTestId,
	canvasNode,
	closeNode,
	createWorkflow,
	fail,
	openNode,
	openWorkflow,
	UI_TIMEOUT_MS,
	type Theme,
	type DevUrls,
} from './editor.mts';
import { triggerEvents } from './expected.mts';

const NOTIFY_WORKFLOW = 'AirSignExNotify1';
const TRIGGER_VERSION = 1; // as the schema check's nodes (airSign below)

/** Step 5: the example's trigger shows a sample session. */
export async function fetchTestEvent(page: Page, dev: DevUrls): Promise<void> {
	await openWorkflow(page, dev.n8nUrl, NOTIFY_WORKFLOW);
	const triggerName = await page
		.locator('[data-test-id="canvas-node"][data-node-type="n8n-nodes-airsign.airSignTrigger"]')
		.first()
		.getAttribute('data-node-name');
	const ndv = await openNode(
		page,
		triggerName ?? fail('the AirSign Trigger on the canvas has no name'),
	);
	const button = byTestId(ndv, 'node-execute-button');
	await button.getByText('Fetch Test Event').waitFor();
	await button.click();
	const output = byTestId(ndv, 'output-panel');
	await output.getByText('sessionId').first().waitFor();
	await output.getByText('completed').first().waitFor();
	await closeNode(page);
}

/** Step 8: every event offered; a second picked shows in the field and subtitle, and is saved. */
export async function pickTriggerEvent(page: Page, dev: DevUrls, theme: Theme): Promise<void> {
	const events = triggerEvents(TRIGGER_VERSION);
	const name = (value: string) =>
		events.find((e) => e.value === value)?.name ?? fail(`no event ${value}`);
	const [completed, recipient] = [name('sessionCompleted'), name('recipientStatusChanged')];
	const trigger = airSign(
		TRIGGER,
		'airSignTrigger',
		{ events: ['sessionCompleted'] },
		DEV_CREDENTIAL,
	);
	const id = await createWorkflow(
		page,
		dev.n8nUrl,
		chainWorkflow({ name: `UI tier: trigger events (${theme})` }, [trigger]),
	);
	await openWorkflow(page, dev.n8nUrl, id);
	await expectSubtitle(page, 'AirSign Trigger', completed);
	const ndv = await openNode(page, 'AirSign Trigger');
	const field = byTestId(ndv, 'parameter-input-events');
	await field.getByText(completed, { exact: true }).waitFor();
	await field.click();
	const option = (text: string) =>
		page
			.getByRole('option')
			.filter({ visible: true })
			.filter({ has: page.getByText(text, { exact: true }) })
			.first();
	for (const event of events) await option(event.name).waitFor();
	await option(recipient).click();
	// the dropdown stays open for more choices; a click on the panel's title closes it
	await byTestId(ndv, 'node-title-container').or(ndv.locator('header')).first().click();
	for (const text of [completed, recipient]) await field.getByText(text, { exact: true }).waitFor();
	await closeNode(page);
	await expectSubtitle(page, 'AirSign Trigger', `${completed}, ${recipient}`);
	await page.keyboard.press('ControlOrMeta+s');
	const saved = await page.waitForFunction(
		async ({ url, wanted }) => {
			const res = await fetch(url, {
				credentials: 'include',
				headers: { 'browser-id': localStorage.getItem('n8n-browserId') ?? '' },
			});
			if (!res.ok) return false;
			const { data }: { data: { nodes: { name: string; parameters?: { events?: unknown } }[] } } =
				await res.json();
			const events = data.nodes.find((n) => n.name === 'AirSign Trigger')?.parameters?.events;
			return JSON.stringify(events) === JSON.stringify(wanted) && events;
		},
		{
			url: `${dev.n8nUrl}/rest/workflows/${id}`,
			wanted: ['sessionCompleted', 'recipientStatusChanged'],
		},
		{ polling: 500 },
	);
	await saved.dispose();
}

/** The node's canvas subtitle reads `wanted` (n8n shows nothing when its expression fails). */
async function expectSubtitle(page: Page, node: string, wanted: string): Promise<void> {
	try {
		await canvasNode(page, node).getByText(wanted, { exact: true }).waitFor();
	} catch {
		const shown = await canvasNode(page, node)
			.innerText()
			.catch(() => '(the node is not on the canvas)');
		fail(
			`the subtitle of "${node}" on the canvas should read "${wanted}"; the node shows ${JSON.stringify(shown)}`,
		);
	}
}

const TRIGGER = 'AirSign Trigger';
const GET = 'Fetch the session';
const NEXT = 'Next step';
/** What the README lists in the trigger's items. */
const TRIGGER_PATHS = ['.event', '.previousStatus', '.recipient.status'];
const GET_PATHS = ['.sessionId', '.status', '.recipients[0].status'];

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
