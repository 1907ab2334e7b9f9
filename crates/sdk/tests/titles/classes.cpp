// A C++ title: global constructor, virtual call, new/delete, templates, extern "C" libc.
#include <stdio.h>
#include <stdlib.h>

namespace {

struct Shape {
    virtual ~Shape() {}
    virtual int area() const = 0;
};

struct Square : Shape {
    explicit Square(int s) : side(s) {}
    int area() const override { return side * side; }
    int side;
};

template <typename T> T twice(T v) { return v + v; }

struct Global {
    Global() { value = twice(21); }
    int value;
};

Global global;

} // namespace

int main() {
    Shape *s = new Square(3);
    int a = s->area();
    delete s;
    printf("area=%d global=%d\n", a, global.value);
    return a == 9 && global.value == 42 ? 0 : 1;
}
