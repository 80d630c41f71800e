// heat.js's pure parts: the map's heat from a coverage report (GET /api/admin/coverage), edge widths and levels.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { THICK, THIN, coveragePath, heatOf, legend, level, opened, thickness } from '../../Public/js/heat.js';

// A catalog shaped like the demo's: a root that shows onboarding, login or the tabs; the todos tab's stack.
const catalog = {
  app: 'todo',
  coordinators: [
    { type: 'App', routes: [
      { name: 'onboarding', outputKind: 'coordinator', output: 'Onboarding' },
      { name: 'unauthenticated', outputKind: 'coordinator', output: 'Login' },
      { name: 'authenticated', outputKind: 'coordinator', output: 'Tabs' }] },
    { type: 'Onboarding', routes: [{ name: 'welcome', outputKind: 'screen' }] },
    { type: 'Login', routes: [{ name: 'login', outputKind: 'screen' }] },
    { type: 'Tabs', routes: [
      { name: 'home', outputKind: 'coordinator', output: 'Home' },
      { name: 'todos', outputKind: 'coordinator', output: 'Todos' }] },
    { type: 'Home', routes: [{ name: 'favourites', outputKind: 'screen' }] },
    { type: 'Todos', routes: [{ name: 'list', outputKind: 'screen' }, { name: 'todo', outputKind: 'screen' }] },
  ],
};

// What the Traffic coverage suite drives: 30 sessions, 20 past onboarding, 10 logged in, 5 on a todo.
const report = {
  sessions: 30, covered: 4, transitions: 8,
  edges: [
    { from: 'onboarding/welcome', action: 'event completeOnboarding', to: 'unauthenticated/login', taken: 20, sessions: 20 },
    { from: 'unauthenticated/login', action: 'event login', to: 'authenticated/home/favourites', taken: 10, sessions: 10 },
    { from: 'authenticated/home/favourites', action: 'focus todos', to: 'authenticated/todos/list', taken: 5, sessions: 5 },
    { from: 'authenticated/todos/list', action: 'push todo', to: 'authenticated/todos/list/todo', taken: 5, sessions: 5 },
    { from: 'authenticated/todos/list', action: 'back', to: 'authenticated/home/favourites', taken: 0, sessions: 0 },
  ],
  unexplored: [],
  screens: [
    { screen: 'onboarding/welcome', sessions: 30 }, { screen: 'unauthenticated/login', sessions: 20 },
    { screen: 'authenticated/home/favourites', sessions: 10 }, { screen: 'authenticated/todos/list', sessions: 5 },
    { screen: 'authenticated/todos/list/todo', sessions: 5 },
  ],
  notes: [],
};

describe('the heat layer', () => {
  test('a change opens the routes new on its visible path', () => {
    assert.deepEqual(opened(catalog, ['onboarding', 'welcome'], ['unauthenticated', 'login']),
      ['App/unauthenticated', 'Login/login']);
    assert.deepEqual(opened(catalog, ['authenticated', 'todos', 'list'], ['authenticated', 'todos', 'list', 'todo']),
      ['Todos/todo']);
    assert.deepEqual(opened(catalog, ['authenticated', 'todos', 'list', 'todo'], ['authenticated', 'todos', 'list']), []);
  });

  test('sessions per screen go to its top route, transitions to the routes they opened', () => {
    const heat = heatOf(catalog, report);
    assert.equal(heat.routes.get('Onboarding/welcome'), 30);
    assert.equal(heat.routes.get('Todos/todo'), 5);
    assert.equal(heat.routes.get('App/authenticated'), undefined, 'a route that is not the screen shown has none');
    assert.deepEqual(heat.edges.get('App/unauthenticated'), { taken: 20, sessions: 20 });
    assert.deepEqual(heat.edges.get('App/authenticated'), { taken: 10, sessions: 10 });
    assert.deepEqual(heat.edges.get('Tabs/todos'), { taken: 5, sessions: 5 });
    assert.equal(heat.edges.get('Tabs/home').taken, 10);
    assert.equal(heat.edges.get('App/onboarding'), undefined, 'never opened by a change: dimmed');
    assert.equal(heat.maxRoute, 30);
    assert.equal(heat.maxTaken, 20);
    assert.equal(legend(heat), '30 sessions; 4 of 8 explored transitions taken (50 %)');
  });

  test('widths and levels grow with the traffic, on a log scale', () => {
    assert.equal(thickness(0, 20), THIN);
    assert.equal(thickness(20, 20), THICK);
    assert.ok(thickness(1, 20) > THIN && thickness(1, 20) < thickness(5, 20) && thickness(5, 20) < THICK);
    assert.equal(thickness(3, 0), THIN);
    assert.deepEqual([0, 1, 5, 30].map((n) => level(n, 30)), [0, 2, 3, 5]);
  });

  test('the query leaves out what is empty', () => {
    assert.equal(coveragePath({}), '/api/admin/coverage');
    assert.equal(coveragePath({ app: 'todo', steps: 'welcome,login', since: ' 24h ', until: '' }),
      '/api/admin/coverage?app=todo&steps=welcome%2Clogin&since=24h');
  });
});
