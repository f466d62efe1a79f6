// A todo list the model keeps for the user, as a Skein extension: a context fragment telling the
// model about it, `todo_add` and `todo_done` tools, the list kept in the thread's durable store (so a
// resumed thread still has it), and a world-state section that shows the model only what changed.
import { defineContextFragment, defineExtension, defineFunctionTool, type DurableExtensionData, type JsonValue } from '@skein/extension-api';
import * as z from 'zod';

const Todo = z.object({ text: z.string(), done: z.boolean() });
const Todos = z.array(Todo);
type Todos = z.infer<typeof Todos>;

/** Sent once with the thread's context; history recognises it by its markers after a resume. */
export const TODO_INSTRUCTIONS = defineContextFragment({
  kind: 'todo.instructions',
  role: 'developer',
  open: '<todo_instructions>',
  close: '</todo_instructions>',
});

const todosIn = (store: DurableExtensionData): Todos => store.get('todos', Todos) ?? [];

function save(store: DurableExtensionData, todos: Todos): void {
  store.set('todos', todos);
}

const summary = (todos: Todos) => `${todos.filter((todo) => !todo.done).length} open, ${todos.filter((todo) => todo.done).length} done`;

function tools(store: DurableExtensionData) {
  const add = defineFunctionTool({
    spec: {
      type: 'function',
      name: 'todo_add',
      description: "Adds an item to the user's todo list.",
      strict: false,
      parameters: { type: 'object', properties: { text: { type: 'string', description: 'What to do' } }, required: ['text'] },
    },
    arguments: z.object({ text: z.string().min(1) }),
    handle: async ({ text }) => {
      const todos = [...todosIn(store), { text, done: false }];
      save(store, todos);
      return { output: `Added "${text}" (${summary(todos)}).`, success: true };
    },
  });
  const done = defineFunctionTool({
    spec: {
      type: 'function',
      name: 'todo_done',
      description: 'Marks an item of the todo list done.',
      strict: false,
      parameters: { type: 'object', properties: { text: { type: 'string', description: 'The item, as it was added' } }, required: ['text'] },
    },
    arguments: z.object({ text: z.string() }),
    handle: async ({ text }) => {
      const todos = todosIn(store);
      if (!todos.some((todo) => todo.text === text && !todo.done)) return { output: `No open item "${text}".`, success: false };
      const updated = todos.map((todo) => (todo.text === text ? { ...todo, done: true } : todo));
      save(store, updated);
      return { output: `Done: "${text}" (${summary(updated)}).`, success: true };
    },
  });
  return [add, done];
}

/** What changed between two snapshots of the list, one line per item; undefined when nothing did. */
export function renderTodoChange(previous: JsonValue | undefined, current: JsonValue): string | undefined {
  const before = Todos.catch([]).parse(previous ?? []);
  const after = Todos.parse(current);
  const lines = after.flatMap((todo) => {
    const was = before.find((old) => old.text === todo.text);
    if (was === undefined) return [`+ [${todo.done ? 'x' : ' '}] ${todo.text}`];
    if (!was.done && todo.done) return [`x [x] ${todo.text}`];
    return [];
  });
  for (const old of before) if (!after.some((todo) => todo.text === old.text)) lines.push(`- ${old.text}`);
  return lines.length === 0 ? undefined : `<todos>\nChanges to the todo list (${summary(after)}):\n${lines.join('\n')}\n</todos>`;
}

export const extension = defineExtension({
  id: 'todo',
  fragments: [TODO_INSTRUCTIONS],
  context: {
    threadFragments: async () => [
      TODO_INSTRUCTIONS.render('You keep a todo list for the user: add items with todo_add, mark them done with todo_done. Each change to the list is shown to you once, in a <todos> message.'),
    ],
  },
  tools: { tools: async ({ thread }) => tools(thread) },
  worldState: [{ sectionId: 'todo.list', snapshot: async ({ thread }) => todosIn(thread), renderChange: renderTodoChange }],
});
