import { accountStoreContract } from './account-store.contract.js';
import { backends } from './backends.js';
import { householdStoreContract } from './household-store.contract.js';
import { sessionStoreContract } from './session-store.contract.js';
import { identityStoreContract, signInCodeStoreContract, signInFlowStoreContract } from './identity-store.contract.js';
import { accountTokenStoreContract } from './account-token-store.contract.js';
import { loginThrottleContract } from './login-throttle.contract.js';
import { inviteStoreContract, pushOutboxContract } from './invite-store.contract.js';
import { planStoreContract } from './plan-store.contract.js';
import { feedbackStoreContract } from './feedback-store.contract.js';
import { referralCodeStoreContract } from './referral-code-store.contract.js';
import { recipeStoreContract } from './recipe-store.contract.js';
import { mealEventStoreContract } from './meal-event-store.contract.js';
import { pantryMergeStoreContract, unitWeightStoreContract } from './pantry-merge-store.contract.js';
import { pantryObservationStoreContract } from './pantry-observation-store.contract.js';
import { foodTableStoreContract, receiptStoreContract } from './food-table-store.contract.js';
import { shoppingListStoreContract } from './shopping-list-store.contract.js';
import { householdRevisionsContract } from './household-revisions.contract.js';

// One contract suite per store port, run against every backend.
for (const backend of backends()) {
  accountStoreContract(backend);
  sessionStoreContract(backend);
  householdStoreContract(backend);
  identityStoreContract(backend);
  signInFlowStoreContract(backend);
  signInCodeStoreContract(backend);
  accountTokenStoreContract(backend);
  loginThrottleContract(backend);
  inviteStoreContract(backend);
  pushOutboxContract(backend);
  planStoreContract(backend);
  feedbackStoreContract(backend);
  referralCodeStoreContract(backend);
  recipeStoreContract(backend);
  mealEventStoreContract(backend);
  pantryMergeStoreContract(backend);
  unitWeightStoreContract(backend);
  pantryObservationStoreContract(backend);
  foodTableStoreContract(backend);
  receiptStoreContract(backend);
  shoppingListStoreContract(backend);
  householdRevisionsContract(backend);
}
