// negamax's driver for Pascal Pons' solver (its Solver.o, built from his repository): for each
// move sequence on standard input, empties the table, scores every column as his `c4solver -a`
// does (Solver::analyze), and prints
//   sequence score_1 ... score_7 nodes thread-CPU-microseconds
// (100 for a full column). Build it in the folder where Pons' solver was built:
//   g++ -std=c++11 -O3 -DNDEBUG -o analyze_driver pons_analyze_driver.cpp Solver.o -I.
#include "Solver.hpp"

#include <ctime>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using GameSolver::Connect4::Position;
using GameSolver::Connect4::Solver;

static double thread_cpu_microseconds() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

int main() {
  Solver solver;
  std::string text;
  while (std::getline(std::cin, text)) {
    std::istringstream words(text);
    std::string moves;
    if (!(words >> moves)) continue;
    Position position;
    if (position.play(moves) != moves.size()) {
      std::cerr << "not a position: " << moves << "\n";
      return 1;
    }
    solver.reset();
    const double start = thread_cpu_microseconds();
    const std::vector<int> scores = solver.analyze(position, false);
    const double spent = thread_cpu_microseconds() - start;
    std::cout << moves;
    for (int score : scores) std::cout << " " << (score == Solver::INVALID_MOVE ? 100 : score);
    std::cout << " " << solver.getNodeCount() << " " << spent << "\n";
  }
  return 0;
}
