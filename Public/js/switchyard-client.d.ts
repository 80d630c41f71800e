// Types of switchyard-client.js (the module itself needs no build step). The state document's shape is
// docs/state-document.md; the API's is docs/openapi.json.

/** An app's name and version. */
export interface AppVersion { name: string; version: number }

/** How an entry is shown. */
export type Presentation = 'push' | 'modal' | 'fullScreen';

/** What a control does when tapped. */
export type ScreenAction =
  | { type: 'transition'; coordinator: string; steps: Step[] }
  | { type: 'event'; from: string; name: string; payload?: unknown; fields: string[] }
  | { type: 'deepLink'; url: string };

/** A row of a list. */
export interface ListRow {
  id: string; title: string; subtitle?: string; icon?: string; badge?: string; action?: ScreenAction;
}

/** One element of a screen. */
export type ScreenElement =
  | { type: 'text'; text: string; style: 'title' | 'headline' | 'body' | 'caption' }
  | { type: 'image'; systemName: string; color?: string }
  | { type: 'textField'; id: string; label: string; placeholder: string; value: string; secure: boolean }
  | { type: 'toggle'; id: string; title: string; isOn: boolean; action: ScreenAction }
  | { type: 'button'; title: string; role: 'primary' | 'secondary' | 'destructive'; disabled: boolean;
      action: ScreenAction }
  | { type: 'list'; rows: ListRow[] };

/** A rendered screen. */
export interface Screen { title: string; background?: string; content: ScreenElement[] }

/** A tab's item in the tab bar. */
export interface TabItem { title: string; icon: string; badge?: string }

/** A root, a tab or a stack item: a route and what it shows. */
export interface Entry {
  id: string; route: string; input?: unknown; presentation?: Presentation; animated?: boolean;
  dismissible?: boolean; tabItem?: TabItem; screen?: Screen | null; coordinator?: CoordinatorNode;
}

/** An alert over a coordinator. */
export interface Alert {
  title: string; message?: string;
  actions: { title: string; role: 'default' | 'cancel' | 'destructive'; event?: string; payload?: unknown }[];
}

/** A coordinator in the state tree. */
export interface CoordinatorNode {
  id: string; type: string; kind: 'root' | 'navigation' | 'tab';
  root?: Entry; stack: Entry[]; tabs?: Entry[]; selectedTab?: string; selectedTabId?: string; alert?: Alert;
  decoration?: { title?: string; navigationBarHidden?: boolean; tint?: string; tabBarStyle?: string;
                 badges?: Record<string, string> };
}

/** A guarded route waiting for its guard. */
export interface PendingRoute { owner: string[]; type: string; route: string; input?: unknown; presentation: Presentation }

/** A session's state document. */
export interface StateDocument {
  session: string; app: AppVersion; version: number;
  visible: { path: string[]; coordinator: string; item: string; screen?: Screen };
  tree: CoordinatorNode; pendingDeepLink?: string; pendingRoute?: PendingRoute; result?: Record<string, unknown>;
}

/** One step of a transition (`{"action": "push", "route": "todo"}`). */
export type Step = { action: string } & Record<string, unknown>;

/** A change an app asks for, with the id sent as `Idempotency-Key` on every try. */
export interface Intent {
  id: string;
  /** The session endpoint: `restore` takes `{"version", "expectedVersion"?}`. */
  kind: 'transitions' | 'events' | 'deeplinks' | 'restore';
  body: Record<string, unknown>;
}

/** A problem the server answered with, or the server out of reach (`status` 0). */
export class ClientProblem extends Error {
  readonly status: number;
  readonly problem: { type?: string; title?: string; detail?: string; code?: string; [member: string]: unknown };
  readonly code: string | null;
  readonly title: string;
  readonly detail: string;
  /** `redirected` (409, applied: show `state`), `staleVersion` (412), `refused`, `unreachable`. */
  readonly kind: 'redirected' | 'staleVersion' | 'refused' | 'unreachable';
  readonly currentVersion: number | null;
  readonly state: StateDocument | null;
  /** The server's `Retry-After`, in milliseconds. */
  retryAfter?: number | null;
}

/** How the connection to a session's stream is doing; while it is not `live` the last state is the one to show. */
export type ConnectionState =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'reconnecting'; next: Date; attempt: number }
  | { state: 'failed'; problem: ClientProblem };

export interface FollowOptions {
  onState?: (doc: StateDocument) => void;
  onConnection?: (connection: ConnectionState) => void;
  /** A patch did not follow on; the follower reconnects for the whole state. */
  onGap?: (why: string) => void;
}

/** Follows a session's stream through disconnections and restarts. */
export class SessionFollower {
  readonly session: string;
  /** The last state received. */
  readonly document: StateDocument | null;
  readonly connection: ConnectionState;
  stop(): void;
}

/** What became of an intent. */
export type Delivery =
  | { intent: Intent; applied: StateDocument }
  | { intent: Intent; refused: ClientProblem };

/** Where a queue keeps the intents not yet answered. */
export interface IntentStorage { load(): Intent[]; save(list: Intent[]): void }

export interface QueueOptions {
  storage?: IntentStorage;
  onDelivery?: (delivery: Delivery) => void;
  onRetry?: (retry: { intent: Intent; attempt: number; next: Date; problem: ClientProblem | null }) => void;
}

/** Sends a session's intents in order, each until answered for good, kept in `storage` meanwhile. */
export class IntentQueue {
  readonly session: string;
  /** The intents not yet answered, oldest first. */
  readonly pending: Intent[];
  /** Resolves with the intent's delivery; rejects if the queue is stopped first, throws if the storage fails. */
  send(intent: Intent): Promise<Delivery>;
  drained(): Promise<void>;
  stop(): void;
}

/** The API of one server. */
export class Switchyard {
  constructor(options?: { server?: string; fetch?: typeof fetch });
  readonly server: string;
  sessionPath(id: string): string;
  request<T = unknown>(method: string, path: string, body?: unknown,
    options?: { headers?: Record<string, string>; signal?: AbortSignal }): Promise<T>;
  createSession(body?: Record<string, unknown>): Promise<StateDocument>;
  getSession(id: string): Promise<StateDocument>;
  history(id: string, page?: { after?: number; limit?: number }): Promise<{ entries: Record<string, unknown>[] }>;
  version(id: string, n: number): Promise<StateDocument>;
  catalog(): Promise<Record<string, unknown>>;
  sessionCatalog(id: string): Promise<Record<string, unknown>>;
  /** The app's deep link that shows what the session has on screen (reverse routing), or `link: null`. */
  visibleLink(id: string): Promise<{ session: string; version: number; path: string[]; link: string | null }>;
  /** The JSON Patch version `n` made, from the version before (version 0: one `add` of the whole document). */
  versionPatch(id: string, n: number): Promise<{ session: string; version: number; patch: { op: string; path: string; value?: unknown; from?: string }[] }>;
  /** The latest changes the session refused on the node that answers (not versions: a short list in memory). */
  refusals(id: string): Promise<{
    session: string;
    version: number;
    refusals: { time: string; version: number; source?: string; request: unknown; status: number; problem: ClientProblem['problem'] }[];
  }>;
  follow(id: string, options?: FollowOptions): SessionFollower;
  intents(id: string, options?: QueueOptions): IntentQueue;
}

export const steps: {
  push(route: string, input?: unknown): Step;
  present(route: string, input?: unknown, presentation?: 'modal' | 'fullScreen'): Step;
  route(route: string, input?: unknown): Step;
  show(route: string, input?: unknown): Step;
  root(route: string, input?: unknown): Step;
  focus(route: string): Step;
  pop(): Step;
  popToRoot(): Step;
  popTo(route: string): Step;
  popItem(item: string): Step;
  dismiss(): Step;
  child(): Step;
  finish(result: unknown): Step;
  respondToAlert(choice: number): Step;
  back(): Step;
  dismissModal(): Step;
  selectTab(route: string): Step;
};

export const intents: {
  transition(steps: Step[], options?: { coordinator?: string; expectedVersion?: number }): Intent;
  event(name: string, options?: { from?: string; payload?: unknown; fields?: Record<string, string>;
                                   expectedVersion?: number }): Intent;
  deepLink(url: string, options?: { expectedVersion?: number }): Intent;
  restore(version: number, options?: { expectedVersion?: number }): Intent;
  ofAction(action: ScreenAction, fields?: Record<string, string>): Intent | null;
};

export function memoryStorage(): IntentStorage;
export function webStorage(storage: Storage, key: string): IntentStorage;
export function applyPatch<T>(doc: T, patch: { op: string; path: string; value?: unknown }[]): T;
export function isStateDocument(value: unknown): value is StateDocument;
export function newId(): string;

/** Reads a `text/event-stream` cut anywhere. */
export class EventStreamParser {
  lastEventId: string | null;
  retry: number | null;
  feed(text: string): { type: string; data: string; id: string | null }[];
}

export function streamStep(event: { type: string; data: string }, current: StateDocument | null):
  { doc?: StateDocument; gap?: string };
