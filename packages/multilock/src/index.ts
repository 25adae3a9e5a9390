export { WaitBudget } from './WaitBudget.js';
