// Othello 6x6 as examples/othello.py's Othello6 writes it, step for step in C++: the same
// state array (Black's discs, White's, the side to move, then the stack of turned discs),
// the same flips walk, move order, evaluation and outcome; and the search the compiled
// kernel runs with every feature off: fail-soft alpha-beta to a fixed depth, no table, a
// node counted on entry, the game's outcome looked at first, mate-distance pruning, the
// evaluation at depth 0. benchmarks/native_rules.py builds it and runs it beside the kernel.
//
// stdin: the depth, then one position a line: "black white turn" (bitboards, 0 Black).
// stdout: "value nodes" a position, then "cpu SECONDS" for the searches alone.
#include <cstdint>
#include <cstdio>
#include <ctime>

namespace {

constexpr int SIZE = 6;
constexpr int CELLS = SIZE * SIZE;
constexpr int64_t PASS = CELLS;
constexpr int STACK = 4;
constexpr int STATE_SIZE = STACK + 2 * CELLS;
constexpr int64_t CORNERS = (1LL << 0) | (1LL << (SIZE - 1)) | (1LL << (CELLS - SIZE)) | (1LL << (CELLS - 1));
constexpr int64_t CORNER = 10;
constexpr int64_t WIN = 100000;
constexpr int64_t WIN_THRESHOLD = WIN - 10000;
constexpr int64_t DRAW = 0;
constexpr int64_t INF = 1000000;
constexpr int64_t ONGOING = INF + 1;
constexpr int64_t EVALUATION_LIMIT = WIN_THRESHOLD - 1;
constexpr int STEPS[8][2] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};

int64_t ORDER[CELLS];
int64_t state[STATE_SIZE];
int64_t nodes = 0;

void make_order() {  // corners first, then the first and last rows, each by cell number
    int count = 0;
    for (int pass = 0; pass < 3; ++pass) {
        for (int cell = 0; cell < CELLS; ++cell) {
            bool corner = (1LL << cell & CORNERS) != 0;
            bool edge_row = cell / SIZE == 0 || cell / SIZE == SIZE - 1;
            int rank = corner ? 0 : edge_row ? 1 : 2;
            if (rank == pass) ORDER[count++] = cell;
        }
    }
}

int64_t flips(int64_t mine, int64_t theirs, int64_t cell) {
    int64_t row = cell / SIZE, column = cell % SIZE;
    int64_t turned = 0;
    for (int index = 0; index < 8; ++index) {
        int64_t step_row = STEPS[index][0], step_column = STEPS[index][1];
        int64_t line = 0;
        int64_t r = row + step_row, c = column + step_column;
        while (0 <= r && r < SIZE && 0 <= c && c < SIZE && (theirs >> (r * SIZE + c) & 1)) {
            line |= 1LL << (r * SIZE + c);
            r += step_row;
            c += step_column;
        }
        if (line != 0 && 0 <= r && r < SIZE && 0 <= c && c < SIZE && (mine >> (r * SIZE + c) & 1)) turned |= line;
    }
    return turned;
}

bool has_move(int64_t mine, int64_t theirs) {
    int64_t empty = ~(mine | theirs);
    for (int64_t cell = 0; cell < CELLS; ++cell)
        if ((empty >> cell & 1) && flips(mine, theirs, cell) != 0) return true;
    return false;
}

int64_t bin_count(int64_t bits) {
    int64_t count = 0;
    while (bits) {
        bits &= bits - 1;
        ++count;
    }
    return count;
}

int64_t disc_score(int64_t mine, int64_t theirs) {
    int64_t corners = CORNER * (bin_count(mine & CORNERS) - bin_count(theirs & CORNERS));
    return bin_count(mine) - bin_count(theirs) + corners;
}

int64_t final_value(int64_t mine, int64_t theirs) {
    int64_t difference = bin_count(mine) - bin_count(theirs);
    return difference > 0 ? WIN : difference < 0 ? -WIN : DRAW;
}

int legal_moves(int64_t* moves) {
    int64_t turn = state[2];
    int64_t mine = state[turn], theirs = state[1 - turn];
    int64_t empty = ~(mine | theirs);
    int count = 0;
    for (int index = 0; index < CELLS; ++index) {
        int64_t cell = ORDER[index];
        if ((empty >> cell & 1) && flips(mine, theirs, cell) != 0) moves[count++] = cell;
    }
    if (count == 0 && has_move(theirs, mine)) {
        moves[0] = PASS;
        count = 1;
    }
    return count;
}

void play(int64_t move) {
    int64_t turn = state[2];
    int64_t turned = 0;
    if (move != PASS) {
        turned = flips(state[turn], state[1 - turn], move);
        state[turn] |= turned | 1LL << move;
        state[1 - turn] &= ~turned;
    }
    state[STACK + state[3]] = turned;
    state[3] += 1;
    state[2] = 1 - turn;
}

void undo(int64_t move) {
    state[3] -= 1;
    int64_t turned = state[STACK + state[3]];
    state[STACK + state[3]] = 0;
    int64_t turn = 1 - state[2];
    if (move != PASS) {
        state[turn] &= ~(turned | 1LL << move);
        state[1 - turn] |= turned;
    }
    state[2] = turn;
}

int64_t outcome() {
    int64_t turn = state[2];
    int64_t mine = state[turn], theirs = state[1 - turn];
    if (has_move(mine, theirs) || has_move(theirs, mine)) return ONGOING;
    return final_value(mine, theirs);
}

int64_t evaluate() {
    int64_t turn = state[2];
    int64_t value = disc_score(state[turn], state[1 - turn]);
    return value > EVALUATION_LIMIT ? EVALUATION_LIMIT : value < -EVALUATION_LIMIT ? -EVALUATION_LIMIT : value;
}

int64_t from_node(int64_t score, int ply) {
    if (score >= WIN_THRESHOLD) return score - ply;
    if (score <= -WIN_THRESHOLD) return score + ply;
    return score;
}

int64_t search(int depth, int64_t alpha, int64_t beta, int ply) {
    ++nodes;
    int64_t result = outcome();
    if (result != ONGOING) return from_node(result, ply);
    if (ply > 0) {  // mate-distance pruning, as the kernel always does
        int64_t ceiling = WIN - ply - 1, floor = -WIN + ply;
        int64_t narrowed_beta = beta > ceiling ? ceiling : beta;
        int64_t narrowed_alpha = alpha < floor ? floor : alpha;
        if (narrowed_alpha >= narrowed_beta) return narrowed_beta < beta ? narrowed_beta : narrowed_alpha;
        alpha = narrowed_alpha;
        beta = narrowed_beta;
    }
    if (depth <= 0) return evaluate();
    int64_t moves[CELLS];
    int count = legal_moves(moves);
    int64_t best = -INF;
    for (int index = 0; index < count; ++index) {
        play(moves[index]);
        int64_t score = -search(depth - 1, -beta, -alpha, ply + 1);
        undo(moves[index]);
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

}  // namespace

int main() {
    make_order();
    int depth;
    if (std::scanf("%d", &depth) != 1) return 2;
    long long black, white, turn;
    double cpu = 0.0;
    while (std::scanf("%lld %lld %lld", &black, &white, &turn) == 3) {
        for (int64_t& cell : state) cell = 0;
        state[0] = black;
        state[1] = white;
        state[2] = turn;
        nodes = 0;
        std::clock_t start = std::clock();
        int64_t value = search(depth, -INF, INF, 0);
        cpu += double(std::clock() - start) / CLOCKS_PER_SEC;
        std::printf("%lld %lld\n", (long long)value, (long long)nodes);
    }
    std::printf("cpu %.6f\n", cpu);
    return 0;
}
