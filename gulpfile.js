const path = require('path');
const { task, src, dest } = require('gulp');

// tsc only emits JavaScript; n8n loads each node's icon from the same folder as its
// compiled file (the credential points at the node's), so the SVGs are copied beside them.
task('build:icons', () =>
	src(path.resolve('nodes', '**', '*.{png,svg}')).pipe(dest(path.resolve('dist', 'nodes'))),
);
