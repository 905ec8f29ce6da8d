// UI tier steps 5 and 8, the AirSign Trigger in the editor: Fetch Test Event, and its events.
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
	type Theme,
	type DevUrls,
} from './editor.mts';
import { triggerEvents } from './expected.mts';

const NOTIFY_WORKFLOW = 'AirSignExNotify1';
const TRIGGER_VERSION = 1;

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
	const trigger = {
		name: 'AirSign Trigger',
		type: 'n8n-nodes-airsign.airSignTrigger',
		typeVersion: TRIGGER_VERSION,
		parameters: { events: ['sessionCompleted'] },
		credentials: { airSignApi: DEV_CREDENTIAL },
	};
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
