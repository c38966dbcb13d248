#pragma once
// What every benchmark's report says the same way: printf-style figures, the verdict against a
// target, and the machine and load the figures were measured under (the targets are judged on
// a shared 2-core machine, so a figure without its load says little).

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace terragrid::bench {

/// `pattern` (printf) with up to four numbers, as one line of a report.
inline std::string format(const char* pattern, double a = 0, double b = 0, double c = 0,
                          double d = 0) {
    char text[256];
    std::snprintf(text, sizeof text, pattern, a, b, c, d);
    return text;
}

/// A target met or not, as the reports print it.
inline std::string verdict(bool pass) { return pass ? "PASS" : "MISS"; }

/// /proc/loadavg's 1, 5 and 15-minute averages, "unknown" where it cannot be read.
inline std::string loadAverage() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    if (!(in >> one >> five >> fifteen)) return "unknown";
    return one + " " + five + " " + fifteen;
}

/// "N cores, <model name>" of the machine running the benchmark.
inline std::string machine() {
    std::ifstream in("/proc/cpuinfo");
    std::string line, model = "unknown CPU";
    while (std::getline(in, line))
        if (line.starts_with("model name")) {
            model = line.substr(line.find(':') + 2);
            break;
        }
    return std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + " cores, " + model;
}

}  // namespace terragrid::bench
