import type { IDataObject } from 'n8n-workflow';

export interface OffsetPage {
	rows: IDataObject[];
	hasMore: boolean;
	/** AirSign's count of the whole list, when the caller watches it. */
	total?: number;
}

export interface OffsetPaging {
	/** Rows wanted (Infinity: all); a page asks for what is still wanted, at most `pageSize`. */
	limit: number;
	pageSize: number;
	/** The field that identifies a row (sessionId, templateId). */
	idField: string;
	/** Where to start: a list search's pagination token. */
	offset?: number;
	maxPages?: number;
	/** Rows to return; the others are read past (a name filter AirSign does not apply). */
	keep?: (row: IDataObject) => boolean;
	/** Stop after the page that brings this many kept rows (default: the limit). */
	enough?: number;
}

/**
 * Every list of the node, by offset until hasMore is false or enough rows are kept. A list that
 * changes while it is read can show a row twice: a row seen is skipped, and counted in `repeated`.
 * `nextOffset` is where to go on from, absent when the list ended.
 */
export async function readByOffset(
	fetchPage: (limit: number, offset: number) => Promise<OffsetPage>,
	paging: OffsetPaging,
): Promise<{ rows: IDataObject[]; nextOffset?: number; repeated: number }> {
	const { limit, pageSize, idField, maxPages = Infinity, keep = () => true } = paging;
	const enough = paging.enough ?? limit;
	const rows: IDataObject[] = [];
	const seen = new Set<unknown>();
	let offset = paging.offset ?? 0;
	let repeated = 0;
	for (let pages = 0; pages < maxPages && rows.length < enough; pages++) {
		const page = await fetchPage(Math.min(pageSize, limit - rows.length), offset);
		for (const row of page.rows) {
			if (seen.has(row[idField])) {
				repeated++;
				continue;
			}
			seen.add(row[idField]);
			if (keep(row)) rows.push(row);
		}
		if (!page.hasMore || page.rows.length === 0) return { rows: rows.slice(0, limit), repeated };
		offset += page.rows.length;
	}
	return { rows: rows.slice(0, limit), nextOffset: offset, repeated };
}
