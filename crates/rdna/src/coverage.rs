//! ISA coverage report (filled in below).
