// First: what the start waits with (src/startup.ts) is in place before any other module's code runs.
import './startup';
import { render } from 'preact';
import { App } from './app';
import './styles.css';

render(<App />, document.getElementById('app')!);

