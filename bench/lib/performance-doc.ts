/** docs/performance.md from bench/results.json, every figure read by name; words for n8n users. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { FIRST_WAVE, MAX_ITEMS_AT_ONCE } from '../../nodes/AirSign/helpers/constants';
import { CAPPED_ITEMS_AT_ONCE, UPLOAD_RUNS_FACTOR } from './peer-cases';
import { table, type Figure } from './stats';

export interface Results {
	date: string;
	command: string;
	machine: string;
	runs: number;
	figures: Figure[];
}

/** A figure's median by name, `digits` decimals (`scale`: 1000 for ms as s), or 'n/a'; `of`: its runs. */
function reader(results: Results) {
	const byName = new Map(results.figures.map((figure) => [figure.name, figure]));
	return (name: string, digits = 0, scale = 1, of: 'median' | 'runs' = 'median') => {
		const figure = byName.get(name);
		return figure === undefined ? 'n/a' : (figure[of] / scale).toFixed(digits);
	};
}

/** The memory table's columns (binary data mode/client) and rows (young generation). */
const MEMORY_COLUMNS =
	'filesystem/node filesystem/httpRequest default/node default/httpRequest none/raw';
const YOUNG_GENERATIONS = { semi1: '1 MiB young generation', v8default: "V8's defaults" };

function renderPerformanceDoc(results: Results): string {
	const value = reader(results);
	const seconds = (name: string) => value(name, 2, 1000);

	const bulkRows = [100, 250].flatMap((latency) =>
		[100, 1000].map((items) => {
			const base = `send/plain/${items}items/${latency}ms`;
			const times = ['nodeDefault', 'nodeCapped', 'httpRequest'].map((c) =>
				seconds(`${base}/${c}/ms`),
			);
			const ratio = value(`${base}/nodeDefault/ratio-to-httpRequest`, 2);
			return [`${items.toLocaleString('en-US')} Sends at ${latency} ms`, ...times, ratio];
		}),
	);
	const burstRows = Object.entries({
		nodeDefault: `AirSign node, defaults`,
		nodeCapped: `AirSign node, Items at Once ${CAPPED_ITEMS_AT_ONCE}`,
		httpRequest: 'HTTP Request node',
	}).map(([client, label]) => {
		const base = `send/burst/100items/100ms/${client}`;
		const counts = ['sent', 'failed', 'requests'].map((measure) => value(`${base}/${measure}`));
		return [label, ...counts, seconds(`${base}/ms`)];
	});
	const memoryRows = ['1MiB', '7MiB'].flatMap((size) =>
		[1, 5].flatMap((count) =>
			Object.entries(YOUNG_GENERATIONS).map(([young, label]) => {
				const cells = MEMORY_COLUMNS.split(' ').map((column) => {
					const [mode, client] = column.split('/');
					const name = `${mode}/${size}/0ms/${client}/x${count}/peak-above-idle-per-file-size`;
					return value(`upload/${name}/${young}`, 2);
				});
				return [size.replace('MiB', ' MiB'), String(count), label, ...cells];
			}),
		),
	);

	const upload100 = 'upload/default/7.00MiB/100ms/node/ratio-to-fetch';
	return `# Performance

How fast the AirSign node runs many items and big files, measured on ${results.date.slice(0, 10)} with
\`${results.command}\` (${results.machine}; up to ${results.runs} runs a case, ${results.runs * UPLOAD_RUNS_FACTOR} for an upload; medians)${results.command.includes('--only') ? '; the sections it leaves out as their last run measured them' : ''}. Every figure below
is read from \`bench/results.json\`, which that command writes; \`bench/RESULTS.md\` has the full
tables with their spread${results.command.includes('--only') ? ' (of the last full run: a run of some sections does not write it)' : ''}. Another machine gives other numbers, the ratios hold.

## Many items: "Items at Once"

Operations that make one request per item (Send, Send Invitation, Get, Create, Create From
Template, Template Get and Create, Upload) run several items at the same time. You do not need to
set anything; unset, only AirSign's budget holds the node back:

- it spends no round trip only to learn the budget: the first ${FIRST_WAVE} requests go at once
  (half the items of a run of more than ${2 * FIRST_WAVE});
- once an answer states the budget (\`X-RateLimit-Remaining\`), it never has more requests in
  flight than that answer says are left, less those sent since, and sends none while it says none
  are left: it waits for the reset AirSign states (within **Max Wait on Rate Limit**);
- an answer that states no budget (Send and Upload have none documented) leaves only Items at
  Once;
- a 429 pauses every item at once for its \`Retry-After\`; after the pause a new window holds at
  most the \`X-RateLimit-Limit\` AirSign stated. Where AirSign states no budget, a 429 is a limit it
  does not announce: from then on the node keeps half as many requests in flight as it had, one
  more after each answer that succeeds (as TCP does after a loss).

**Items at Once** (in Options) is the most items that may run at once, a ceiling you set: 1 runs
the items strictly one after another. Unset it is ${MAX_ITEMS_AT_ONCE.toLocaleString('en-US')}, also the most you can set: a bound on the
connections one run holds open, not a pace. (Until issue 50 the node sent one request alone first,
then ran at most 100 items at once, however much AirSign allowed.)

Why a first wave of ${FIRST_WAVE}: far from AirSign (250 ms a round trip), n8n sends about that many
requests before the first answer comes back (its own work is 2–3 ms a request on the machine named
above), so a smaller wave would cost every run of more items a whole round trip; a larger one
would send more before AirSign has said anything. A run of more than ${2 * FIRST_WAVE} items sends half of them
first: the rest goes at the first answer and waits a whole round trip for its own, a wait that n8n's
work on the first wave's answers fills only when that wave is a share of the run (1,000 Sends at
250 ms spent a round trip idle with a wave of ${FIRST_WAVE}). Its price, under a burst limit smaller than the
wave (below): the requests over it are refused once (429: AirSign
neither processes nor counts them), waited out in one pause and sent once more.

${table(['run', 'defaults, s', `Items at Once ${CAPPED_ITEMS_AT_ONCE}, s`, 'HTTP Request node, s', 'defaults ÷ HTTP Request'], bulkRows)}

AirSign's budget counts requests per hour, so running items at once spends it no faster; it only
stops the network's round trip from adding up item by item (one after another, every item waits a
whole round trip: 1,000 items at 250 ms take over four minutes). With the defaults, 100 Sends at
100 ms take ${value('send/plain/100items/100ms/nodeDefault/ratio-to-httpRequest', 2)}× the time of n8n's HTTP Request node, which fires every item at once
(and fails the items a burst limit refuses, below), and ${value('send/plain/100items/250ms/nodeDefault/ratio-to-httpRequest', 2)}× at 250 ms; 1,000 Sends take ${value('send/plain/1000items/100ms/nodeDefault/ratio-to-httpRequest', 2)}× at 100 ms and ${value('send/plain/1000items/250ms/nodeDefault/ratio-to-httpRequest', 2)}× at 250 ms.
With that many requests in flight, n8n's own work per request, not the network, is mostly what a
run waits for.

Whatever the setting:

- the output keeps the input order, and each output item stays paired with its input;
- a 429 pauses every item of the run for AirSign's \`Retry-After\`, within **Max Wait on Rate
  Limit**, on every operation (Send and Upload included: a 429 means AirSign did not process the
  request, so the item is safely sent again);
- a write that may have reached AirSign (a 5xx, a dropped connection) is never sent again;
- without Continue On Fail, the first failure stops new items; the error names the items that were
  already running beside it, whose requests may have reached AirSign.

Where the node stays at one: **Get Many** (sessions and templates) and the **AirSign Trigger** read
pages one after another: each page depends on the one before, and List Sessions has its own budget
of 60 requests an hour, which pages in parallel would only spend faster.

### When AirSign sheds bursts

AirSign documents hourly budgets; a service may still refuse bursts. Below, the sandbox accepts
20 requests per 2 s, states that window in its rate-limit headers while it is the tighter one, and
answers the rest 429 with \`Retry-After\`; 100 Sends at 100 ms:

${table(['client', 'items sent', 'items failed', 'requests', 's'], burstRows)}

The node's first wave goes before AirSign has said anything: the window takes 20 of it and
refuses the rest once (the requests column counts those 429s); after one pause they are sent
again. From then on the node reads what is left from each answer and waits for the window's reset
instead of sending into it: no request goes into a window AirSign has stated empty. A service that
refused bursts without saying so in its headers would cost the node one 429 per request over the
window, each waited out and sent again, and each 429 halves the requests it keeps in flight.

The HTTP Request node sends every item at once and does not wait for \`Retry-After\`: the items
refused fail, and the workflow stops unless "On Error" is set.

## Big files: Upload

Upload reads the PDF from n8n's binary data as a stream and sends it encoded piece by piece: it
never holds the whole file, nor its base64 text, in one piece (pieces already sent stay in memory
only until V8 collects them: the table below). In n8n 2 (binary data in the file system, or in the
database in queue mode) the file is read from there, 48 KiB at a time; in n8n 1.x's default
in-memory mode the node sends the base64 text n8n already holds, as it is, 256 KiB at a time. The
checks before the upload (empty, over 7 MB, not a PDF) read only the file's size and first bytes,
and cost no request.

Why 256 KiB for text n8n already holds (2026-11-29, a 2-core Intel Xeon): each piece is one copy and one socket write,
and a quarter of the pieces took the node's upload from 1.115 to 1.080 times raw \`node:http\`'s
time (the two alone, alternating, 40 uploads each, the mean of 8 runs at 100 ms). With V8's
defaults the memory stayed about the same (7 MiB, one upload: 1.03 → 1.05× the file; five at
once: 4.38 → 4.43); with a 1 MiB young generation it rose (7 MiB, one upload: 0.88 → 1.29;
five: 2.4 → 3.5; 1 MiB, five: 4.8 → 6.3). Pieces of 1 MiB were faster still at 100 ms (1.060) but
slower at 0 ms (in the peer section, 1.33 and 1.42 times raw against 1.11 and 1.11), and held more
with V8's defaults (one 7 MiB upload: 1.25).

Peak memory above idle while uploading, as a multiple of one file's size (five at once: all five
together, still divided by one file's size; one fresh process per figure; "1 MiB young generation" is \`node --max-semi-space-size=1\`, where pieces already sent
are freed as the upload goes; with V8's defaults they stay in memory as garbage until V8 collects
them, which is what most n8n instances run with):

${table(['file', 'at once', 'young generation', 'node, filesystem (n8n 2)', 'HTTP Request, filesystem (Extract From File → HTTP Request)', 'node, default (n8n 1.x)', 'HTTP Request, default (n8n 1.x)', 'raw client'], memoryRows)}

The HTTP Request workflow a user builds on n8n 2 needs the file's bytes as base64 first: Extract
From File ("Move File to Base64 String"), then HTTP Request with a JSON body (2 nodes); on n8n 1.x's
default mode one HTTP Request reads \`{{ $input.item.binary.data.data }}\`.

Upload time against a raw client (read the file, base64, POST) at 100 ms per request, 7 MiB:
node ÷ raw = ${value(upload100, 2)}, the median of ${value(upload100, 0, 1, 'runs')} runs. Uploads get ${UPLOAD_RUNS_FACTOR} times the
runs of the other cases: one takes a fraction of a second, and its time moves with when V8
collects the garbage the run before it left, and it depends on the machine. On 2026-11-29, with
256 KiB pieces, three full benches in a row on a 2-core Intel Xeon gave 1.102, 1.095 and 1.102
(with 64 KiB pieces, 1.107 to 1.168 in three full benches before), and two in a row on a 2-core
AMD EPYC gave 0.96 and 1.00.
`;
}

/** Where the README's generated Performance lines stand (kept between these two comments). */
const README_PERFORMANCE_START = '<!-- performance: written by npm run bench, do not edit -->';
const README_PERFORMANCE_END = '<!-- /performance -->';

/** The README's few Performance lines, read from bench/results.json like docs/performance.md. */
function renderReadmePerformance(results: Results): string {
	const median = reader(results);
	const burst = (client: string) =>
		`${median(`send/burst/100items/100ms/${client}/sent`, 0)} sent, ${median(`send/burst/100items/100ms/${client}/failed`, 0)} failed`;
	const upload = (copies: string) =>
		median(`upload/filesystem/7MiB/0ms/node/${copies}/peak-above-idle-per-file-size/semi1`, 2);
	return [
		README_PERFORMANCE_START,
		`Measured on ${results.date.slice(0, 10)} with \`${results.command}\` (medians; ${results.machine}):`,
		'',
		`- Sends with the node's defaults, against n8n's HTTP Request node, which fires every item at once: 100 Sends ${median('send/plain/100items/100ms/nodeDefault/ratio-to-httpRequest', 2)}× its time at 100 ms of latency and ${median('send/plain/100items/250ms/nodeDefault/ratio-to-httpRequest', 2)}× at 250 ms; 1,000 Sends ${median('send/plain/1000items/100ms/nodeDefault/ratio-to-httpRequest', 2)}× and ${median('send/plain/1000items/250ms/nodeDefault/ratio-to-httpRequest', 2)}×.`,
		`- Under a burst limit with 429 and Retry-After (100 Sends): the node ${burst('nodeDefault')}; the HTTP Request node ${burst('httpRequest')}.`,
		`- A 7 MiB upload: ${median('upload/default/7.00MiB/100ms/node/ratio-to-fetch', 2)}× the time of a raw \`node:http\` client at 100 ms of latency; in n8n 2's filesystem mode ${upload('x1')}× the file in memory above idle for one upload, ${upload('x5')}× for five at once.`,
		'',
		'Every figure, the HTTP Request workflows and what they get wrong: [docs/performance.md](docs/performance.md).',
		README_PERFORMANCE_END,
	].join('\n');
}

/** Writes docs/performance.md and the README's Performance lines (between its markers) from `results`. */
export function writePerformanceDocs(results: Results): void {
	const root = path.join(__dirname, '..', '..');
	writeFileSync(path.join(root, 'docs', 'performance.md'), renderPerformanceDoc(results));
	const file = path.join(root, 'README.md');
	const readme = readFileSync(file, 'utf8');
	const start = readme.indexOf(README_PERFORMANCE_START);
	const end = readme.indexOf(README_PERFORMANCE_END);
	if (start === -1 || end < start) return;
	const after = readme.slice(end + README_PERFORMANCE_END.length);
	writeFileSync(file, readme.slice(0, start) + renderReadmePerformance(results) + after);
}
