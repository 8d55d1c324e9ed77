// poolpilot's live page: reads the threadpools endpoint (the present) and history.json (the
// last ten minutes) every second, draws them with uPlot, and changes pools through the
// endpoint when the server says this person may.
(function () {
	'use strict';
	var meta = function (name) {
		var el = document.querySelector('meta[name="poolpilot-' + name + '"]');
		return el ? el.getAttribute('content') : '';
	};
	var ENDPOINT = meta('endpoint');
	var WRITABLE = meta('writable') === 'true';
	var CSRF_HEADER = meta('csrf-header');
	var CSRF_TOKEN = meta('csrf-token');
	var COLORS = ['#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#d62728'];
	var COLUMNS = ['time', 'corePoolSize', 'maxPoolSize', 'poolSize', 'activeCount', 'queueSize', 'queueCapacity',
		'arrivalRate', 'throughput', 'meanQueueWaitMs', 'p99QueueWaitMs', 'meanServiceTimeMs', 'p99ServiceTimeMs',
		'meanResponseTimeMs', 'rejectedQueueFull', 'rejectedQueueWait', 'rejectedCircuitOpen', 'rejectedShutdown',
		'limited'];
	var littlesW = function (c, i) { return c.throughput[i] * c.meanResponseTimeMs[i] / 1000; };
	var measuredL = function (c, i) { return c.activeCount[i] + c.queueSize[i]; };
	var CHARTS = [
		['Threads', [['max (target)', 'maxPoolSize', '#1f77b4'], ['core', 'corePoolSize', '#aec7e8'],
			['live', 'poolSize', '#2ca02c'], ['busy', 'activeCount', '#d62728']]],
		['Queue vs capacity', [['queued', 'queueSize', '#ff7f0e'], ['capacity', 'queueCapacity', '#999999']]],
		['Arrival rate vs throughput (/s)', [['arrivals λ', 'arrivalRate', '#9467bd'],
			['throughput X', 'throughput', '#2ca02c']]],
		['Queue wait and service time (ms)', [['wait p99', 'p99QueueWaitMs', '#ff7f0e'],
			['wait mean', 'meanQueueWaitMs', '#ffbb78'], ['service p99', 'p99ServiceTimeMs', '#1f77b4'],
			['service mean', 'meanServiceTimeMs', '#aec7e8']]],
		['Refusals by reason (per window)', [['queue full', 'rejectedQueueFull', '#d62728'],
			['queue wait', 'rejectedQueueWait', '#ff7f0e'], ['circuit open', 'rejectedCircuitOpen', '#8c564b'],
			['shutdown', 'rejectedShutdown', '#7f7f7f']]],
		["Little's law: λ·W against measured L", [['λ·W (X·R)', littlesW, '#17becf'],
			['L (busy + queued)', measuredL, '#bcbd22']]]
	];
	var pools = {};
	var after = null;
	var retentionMs = 600000;

	function el(tag, attrs, text) {
		var e = document.createElement(tag);
		Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
		if (text !== undefined) { e.textContent = text; }
		return e;
	}

	function fmt(v, digits) {
		if (v === null || v === undefined || isNaN(v)) { return '–'; }
		return Number(v).toFixed(digits === undefined ? 1 : digits);
	}

	function poolView(name) {
		if (pools[name]) { return pools[name]; }
		var section = el('section', { 'class': 'pool', 'data-pool': name });
		var title = el('h2', {}, name + ' ');
		var badges = el('span', { 'class': 'badges' });
		title.appendChild(badges);
		section.appendChild(title);
		var figures = el('div', { 'class': 'figures' });
		section.appendChild(figures);
		var view = { name: name, section: section, badges: badges, figures: figures, charts: [], cols: {} };
		COLUMNS.forEach(function (c) { view.cols[c] = []; });
		if (WRITABLE) { section.appendChild(controls(view)); }
		var charts = el('div', { 'class': 'charts' });
		section.appendChild(charts);
		CHARTS.forEach(function (def) {
			var box = el('div', { 'class': 'chart' });
			box.appendChild(el('h3', {}, def[0]));
			charts.appendChild(box);
			var series = [{}].concat(def[1].map(function (s) {
				return { label: s[0], stroke: s[2], width: 1.5, points: { show: false } };
			}));
			var width = Math.max(320, (box.clientWidth || 360) - 10);
			var plot = new uPlot({ width: width, height: 150, series: series, legend: { live: false },
				scales: { x: { time: true } }, axes: [{}, { size: 50 }] },
				[[]].concat(def[1].map(function () { return []; })), box);
			view.charts.push({ def: def, plot: plot, box: box });
		});
		section.appendChild(el('h3', {}, 'Decisions (newest first)'));
		view.decisions = el('ol', { 'class': 'decisions', 'reversed': '' });
		section.appendChild(view.decisions);
		document.getElementById('pools').appendChild(section);
		pools[name] = view;
		return view;
	}

	function controls(view) {
		var box = el('div', { 'class': 'controls' });
		var core = el('input', { type: 'number', min: '0', name: 'corePoolSize', 'aria-label': 'core pool size' });
		var max = el('input', { type: 'number', min: '0', name: 'maxPoolSize', 'aria-label': 'max pool size' });
		var resize = el('button', { type: 'button', 'data-action': 'resize' }, 'Resize');
		var auto = el('button', { type: 'button', 'data-action': 'auto' }, 'Auto');
		var manual = el('button', { type: 'button', 'data-action': 'manual' }, 'Manual');
		var message = el('span', { 'class': 'message' });
		box.append('core', core, 'max', max, resize, auto, manual, message);
		resize.addEventListener('click', function () {
			change(view, { corePoolSize: Number(core.value), maxPoolSize: Number(max.value) });
		});
		auto.addEventListener('click', function () { change(view, { tuning: 'auto' }); });
		manual.addEventListener('click', function () { change(view, { tuning: 'manual' }); });
		// What a person typed stays until they send it: from the moment they enter a
		// field, so that a redraw between clearing it and typing cannot put the old
		// size back in front of what they type.
		[core, max].forEach(function (input) {
			['focus', 'input'].forEach(function (type) {
				input.addEventListener(type, function () { view.editing = true; });
			});
		});
		view.inputs = { core: core, max: max, message: message };
		return box;
	}

	function change(view, body) {
		var headers = { 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
		if (CSRF_HEADER) { headers[CSRF_HEADER] = CSRF_TOKEN; }
		view.inputs.message.textContent = '…';
		fetch(ENDPOINT + '/' + encodeURIComponent(view.name), { method: 'POST', headers: headers,
			credentials: 'same-origin', body: JSON.stringify(body) })
			.then(function (res) {
				return res.text().then(function (text) {
					var json = {};
					try { json = JSON.parse(text); } catch (e) { /* not JSON */ }
					view.inputs.message.textContent = res.ok ? 'done'
						: (json.message || json.detail || ('HTTP ' + res.status));
					view.editing = false;
					refresh();
				});
			}, function (err) { view.inputs.message.textContent = String(err); });
	}

	function append(view, samples) {
		var n = samples.time.length;
		for (var i = 0; i < n; i++) {
			COLUMNS.forEach(function (c) { view.cols[c].push(samples[c][i]); });
		}
		var oldest = view.cols.time.length ? view.cols.time[view.cols.time.length - 1] - retentionMs : 0;
		var drop = 0;
		while (drop < view.cols.time.length && view.cols.time[drop] < oldest) { drop++; }
		if (drop > 0) { COLUMNS.forEach(function (c) { view.cols[c].splice(0, drop); }); }
	}

	function redraw(view) {
		var c = view.cols;
		var x = c.time.map(function (t) { return t / 1000; });
		view.charts.forEach(function (chart) {
			var data = [x].concat(chart.def[1].map(function (s) {
				return (typeof s[1] === 'function') ? c.time.map(function (t, i) { return s[1](c, i); }) : c[s[1]];
			}));
			chart.plot.setData(data);
		});
		view.section.setAttribute('data-samples', String(c.time.length));
	}

	function recent(c, column, count) {
		var sum = 0;
		for (var i = Math.max(0, c[column].length - count); i < c[column].length; i++) { sum += c[column][i]; }
		return sum;
	}

	// A listener's queue is the broker's, which has no capacity the pool knows.
	function queueFigure(pool) {
		return pool.queueAt === 'broker' ? pool.queueSize + ' (broker)' : pool.queueSize + ' of ' + pool.queueCapacity;
	}

	function present(view, pool) {
		var c = view.cols;
		var law = pool.littlesLaw || {};
		var refused = recent(c, 'rejectedQueueFull', 5) + recent(c, 'rejectedQueueWait', 5)
			+ recent(c, 'rejectedCircuitOpen', 5) + recent(c, 'rejectedShutdown', 5);
		var trouble = {
			saturated: pool.activeCount >= 0.9 * pool.maxPoolSize && pool.queueSize > 0,
			refusing: refused > 0,
			'circuit open': recent(c, 'rejectedCircuitOpen', 5) > 0,
			'growth limited': pool.tuning.limited
		};
		view.badges.textContent = '';
		view.badges.appendChild(el('span', { 'class': 'mode' }, pool.tuning.mode));
		var bad = false;
		Object.keys(trouble).forEach(function (k) {
			if (trouble[k]) { bad = true; view.badges.appendChild(el('span', { 'class': 'bad' }, k)); }
		});
		view.section.classList.toggle('trouble', bad);
		var figures = [
			['core/max/live', pool.corePoolSize + '/' + pool.maxPoolSize + '/' + pool.poolSize],
			['lendable', pool.lendableThreads],
			['busy', pool.activeCount], ['queue', queueFigure(pool)],
			['λ', fmt(law.arrivalRate) + '/s'], ['X', fmt(law.throughput) + '/s'],
			['p99 response', fmt(law.p99ResponseTimeMs) + ' ms'],
			['λ·W', fmt(law.throughput * law.meanResponseTimeMs / 1000, 2)],
			['L', pool.activeCount + pool.queueSize],
			['bounds', pool.minThreads + '–' + pool.maxThreads], ['refused', pool.rejectedTasks]
		];
		if (pool.lateness) {
			figures.push(['late mean', fmt(pool.lateness.meanMs) + ' ms'],
				['late p99', fmt(pool.lateness.p99Ms) + ' ms'],
				['late, all busy', pool.lateness.busyLateRuns + ' of ' + pool.lateness.runs]);
		}
		view.figures.textContent = '';
		figures.forEach(function (f) {
			var span = el('span', { 'data-figure': f[0] }, f[0] + ' ');
			span.appendChild(el('b', {}, String(f[1])));
			view.figures.appendChild(span);
		});
		if (view.inputs && !view.editing) {
			view.inputs.core.value = pool.corePoolSize;
			view.inputs.max.value = pool.maxPoolSize;
		}
	}

	function decisions(view, list) {
		list.forEach(function (d) {
			var li = el('li', d.limited ? { 'class': 'limited' } : {},
				new Date(d.time).toLocaleTimeString() + ' ' + d.reason);
			view.decisions.insertBefore(li, view.decisions.firstChild);
		});
		while (view.decisions.children.length > 128) { view.decisions.removeChild(view.decisions.lastChild); }
	}

	function budget(all) {
		var b = all.budget;
		document.getElementById('budget-figures').textContent = b.liveThreads + ' live, ' + b.allocatedThreads
			+ ' allocated, ' + b.lendableThreads + ' lendable of ' + b.maxThreads + ' threads';
		var bar = document.getElementById('budget-bar');
		var legend = document.getElementById('budget-legend');
		bar.textContent = '';
		legend.textContent = '';
		Object.keys(all.pools).forEach(function (name, i) {
			var p = all.pools[name];
			var color = COLORS[i % COLORS.length];
			var live = el('span', { 'class': 'live', 'data-pool': name,
				title: name + ': ' + p.poolSize + ' live of ' + p.maxPoolSize + ' allocated' });
			live.style.width = (100 * p.poolSize / b.maxThreads) + '%';
			live.style.background = color;
			bar.appendChild(live);
			var spare = Math.max(0, p.maxPoolSize - p.poolSize);
			var allocated = el('span', { 'class': 'allocated',
				title: name + ': ' + spare + ' allocated, not live; ' + p.lendableThreads + ' lendable' });
			allocated.style.width = (100 * spare / b.maxThreads) + '%';
			allocated.style.background = color;
			bar.appendChild(allocated);
			var key = el('span', {});
			var swatch = el('i', {});
			swatch.style.background = color;
			key.setAttribute('data-pool', name);
			key.append(swatch, name + ' ' + p.poolSize + '/' + p.maxPoolSize
				+ (p.lendableThreads > 0 ? ' (' + p.lendableThreads + ' lendable)' : ''));
			legend.appendChild(key);
		});
	}

	function getJson(url) {
		return fetch(url, { credentials: 'same-origin', headers: { 'X-Requested-With': 'XMLHttpRequest' } })
			.then(function (res) {
				if (!res.ok) { throw new Error(url + ': HTTP ' + res.status); }
				return res.json();
			});
	}

	function refresh() {
		var historyUrl = 'history.json' + (after !== null ? '?after=' + after : '');
		return Promise.all([getJson(ENDPOINT), getJson(historyUrl)]).then(function (both) {
			var all = both[0];
			var history = both[1];
			retentionMs = history.retentionSeconds * 1000;
			after = history.now;
			Object.keys(history.pools).forEach(function (name) {
				var view = poolView(name);
				append(view, history.pools[name].samples);
				decisions(view, history.pools[name].decisions);
			});
			Object.keys(all.pools).forEach(function (name) {
				var view = poolView(name);
				present(view, all.pools[name]);
				redraw(view);
			});
			Object.keys(pools).forEach(function (name) {
				if (!all.pools[name]) { pools[name].section.remove(); delete pools[name]; }
			});
			budget(all);
			var status = document.getElementById('status');
			status.textContent = 'live, ' + new Date(history.now).toLocaleTimeString();
			status.classList.remove('error');
		}).catch(function (err) {
			var status = document.getElementById('status');
			status.textContent = String(err.message || err);
			status.classList.add('error');
		});
	}

	document.getElementById('access').textContent = WRITABLE ? 'changes allowed' : 'read-only';
	var running = false;
	function tick() {
		if (running) { return; }
		running = true;
		refresh().then(function () { running = false; });
	}
	tick();
	setInterval(tick, 1000);
}());
