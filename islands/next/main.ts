// Entry of islands/next (loaded as <script type="module"> on an order page
// that offers a move).
import { prefetchNext } from "./prefetch";

void prefetchNext();
