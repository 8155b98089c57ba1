// The mesh and heightfield routes fuzzed (tests/support/fuzz_surfaces.h):
// every convex type against a tessellated box mesh and a tilted-plane
// heightfield, seeded, 1500 pairs each (150 under the sanitizers), in every
// pose class. Every check must pass, but for the shallow check on the
// heightfield, where a contact may come out a few float ulps of the
// coordinates shallower than the double-precision plane, and the witness
// check (a shape sunk deeper than a triangle is wide joins its deepest
// point to the nearest point of the triangle, not the one across the
// normal): both held to their present level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "tests/support/fuzz_surfaces.h"

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr long kPairsPerRoute = 150;
constexpr long kWitnessFindings = 6;
#else
constexpr long kPairsPerRoute = 1500;
constexpr long kWitnessFindings = 24;
#endif

TEST(FuzzSurfaces, EveryRouteMeetsTheChecks)
{
    for (auto route : ccfuzz::surface_routes()) {
        ccfuzz::RouteTally t;
        std::string error;
        ccfuzz::fuzz_surface_route(route.first, route.second, kPairsPerRoute, 1, cc_device_cpu(), &t, &error);
        std::string name = std::string(cc_shape_type_name(route.first)) + "-" + ccfuzz::surface_name(route.second);
        ASSERT_TRUE(error.empty()) << name << ": " << error;
        std::printf("%-24s %6ld pairs %6ld contacts", name.c_str(), t.pairs, t.contacts);
        for (int c = 0; c < ccfuzz::kChecks; ++c)
            if (t.failures[c]) std::printf("  %s %ld (worst %.2g)", ccfuzz::check_name(c), t.failures[c], t.worst[c]);
        std::printf("\n");
        EXPECT_GT(t.contacts, kPairsPerRoute / 10) << name;
        for (int c = 0; c < ccfuzz::kChecks; ++c) {
            if (c == ccfuzz::kWitness) {
                EXPECT_LE(t.failures[c], kWitnessFindings) << name << " witness: " << t.example[c];
            } else if (c == ccfuzz::kShallow && route.second == ccfuzz::kTiltedHeightfield) {
                EXPECT_LE(t.failures[c], 2) << name;
                EXPECT_LE(t.worst[c], 0.01) << name << ": " << t.example[c];
            } else {
                EXPECT_EQ(t.failures[c], 0) << name << " " << ccfuzz::check_name(c) << ": " << t.example[c];
            }
        }
    }
}

// Shapes hanging over a convex edge of a mesh box, their centres beyond
// the edge: the face's triangle finds the contact on the shared edge (or
// vertex) and the edge's owner across it drops it, A reaching below its
// plane, or two coplanar triangles each leave it to the other. Each
// contact must be kept by one triangle: the pair gets its contact at the
// box's signed distance.
TEST(FuzzSurfaces, ShapesOverAConvexEdgeKeepTheirContact)
{
    const char* cases[] = {
        // A flat ellipsoid over the top edge of a 3 x 3 quad box: an edge contact along the top face's normal.
        "[parallel] A: ellipsoid size (0.620001674 0.0949623734 0.066958189) margin 0.05587418 gap 0.0609568059 at "
        "(-0.656172574 -1.81573963 1.36475801) q (0.906886876 -0.228679821 0.348869115 -0.0595990196); mesh box half "
        "(0.139601022 0.232326493 0.280695289) quads 3 gap 0.0659861416 at (-1.10012758 -1.84993899 1.50101936) q "
        "(0.906886876 -0.228679821 0.348869115 -0.0595990196)",
        // A large ellipsoid beside a corner of a 12-triangle box, within its gap: a vertex contact.
        "[parallel] A: ellipsoid size (1.15513682 0.911321342 3.46784616) margin 0 gap 0.210757092 at (-3.27867222 "
        "-3.03284192 1.06237495) q (0.474744529 0.544481397 0.668938994 -0.175152063); mesh box half (0.105419368 "
        "0.263854861 0.544470906) quads 1 gap 0 at (-1.56193531 -1.44366884 1.70167089) q (0.474744529 0.544481397 "
        "0.668938994 -0.175152063)",
        // A thin cylinder beside a box's vertical edge near its top corner: the
        // side's two triangles each see the contact past their own boundary (one
        // beyond the diagonal, one beyond the corner) and each left it to the other.
        "[parallel] A: cylinder size (0.00105868781 0.0107165184 0) margin 0.000509456149 gap 0 at (-0.00713236583 "
        "0.0138498414 0.0176315885) q (0.169458717 0.71689713 -0.399617761 -0.545571148); mesh box half (0.00173240318 "
        "0.00123758113 0.00693251379) quads 1 gap 0 at (0.00343090878 0.0185933039 0.0155807491) q (0.169458717 "
        "0.71689713 -0.399617761 -0.545571148)",
        // A small cone just past a box's edge, within its gap: the face's one-point
        // contact lies on the shared edge and goes to the edge's owner on the other
        // face, which left it to the face because the face reported it.
        "[random] A: cone size (0.000184904362 0.000243699062 0) margin 1.12167626e-07 gap 1.12518064e-05 at "
        "(-0.00448971521 -0.0105515532 -0.0018413068) q (0.0120520694 -0.79915297 0.579313755 0.16001524); mesh box "
        "half (0.000633226591 0.00102730806 0.00125720247) quads 4 gap 0 at (-0.00295033166 -0.00982986111 "
        "-0.00251670135) q (0.727828205 -0.0975975394 -0.675642967 -0.0651719347)",
    };
    // Shapes crossing a face with their lowest point just past it, where the
    // depth over the face is a lift that GJK must prove free: a steep thin
    // cylinder poking through a thin box's side beside its bottom edge (the
    // bottom, which the solid's own push-out would use, is culled: the
    // centre lies behind its plane) got nothing from either face.
    const char* crossing[] = {
        "[random] A: cylinder size (3.46248016e-05 0.000190350067 0) margin 0 gap 3.63463556e-07 at (0.000890543044 "
        "0.00170069584 -0.0018477866) q (0.188676536 0.445192933 -0.0601535104 0.87326169); mesh box half "
        "(0.000591112825 0.000375812262 0.000128421554) quads 3 gap 1.07291462e-05 at (0.00122602074 0.0021150976 "
        "-0.00154999888) q (0.164650202 -0.351688802 -0.687293172 0.613867581)",
        // A small cone sunk across a heightfield's face with its lowest point
        // past the triangle: the touching point once came from GJK's blend of
        // prism vertices, on a chord inside the prism, 4 um below the face.
        "[coincident] A: cone size (0.00197071885 0.00165419269 0) margin 0 gap 0 at (-0.0809843242 -0.267594695 "
        "-0.270940155) q (-0.904485345 0.181278512 0.288228184 -0.256844044); heightfield 9x2 size (0.233201683 "
        "0.0815956369 0.0220931042) plane 0.655935407 0.245670438 0.0955753997 gap 0.00957472995 at (-0.0842896327 "
        "-0.255602688 -0.278374851) q (-0.455905467 0.18876949 -0.534314334 -0.686312258)",
        // A cylinder sunk into one large heightfield cell, its cap tilted to
        // the face: the exact deepest rim point lies between two corners of
        // the cap's polygon and was left out when the margin it had to beat
        // them by scaled with the cell's size (0.1 % of the radius shallow).
        "[parallel] A: cylinder size (0.374009997 0.223849192 0) margin 0.000620127306 gap 0.000480341492 at "
        "(-232.366974 -52.6761856 118.409264) q (0.0499322452 -0.0812548697 -0.924818814 -0.368258804); heightfield "
        "2x2 size (105.28109 89.7634888 21.6235409) plane 0.697018445 0.18887192 0.279710472 gap 0 at (-208.348389 "
        "-113.882637 115.019249) q (0.0499322452 -0.0812548697 -0.924818814 -0.368258804)",
    };
    std::vector<ccfuzz::SurfacePair> pairs;
    for (const char* c : cases) {
        ccfuzz::SurfacePair p;
        ASSERT_TRUE(ccfuzz::parse_surface_pair(c, &p)) << c;
        pairs.push_back(p);
    }
    std::string error;
    auto contacts = ccfuzz::collide_surface_pairs(pairs, cc_device_cpu(), &error);
    ASSERT_TRUE(error.empty()) << error;
    for (size_t i = 0; i < pairs.size(); ++i) {
        ASSERT_FALSE(contacts[i].empty()) << cases[i];
        for (const ccfuzz::Finding& f : ccfuzz::score_surface(pairs[i], contacts[i]))
            ADD_FAILURE() << ccfuzz::check_name(f.check) << ": " << f.detail << " -- " << cases[i];
        // The deepest contact is the box's signed distance less both margins.
        double deepest = 1e30;
        for (const cc_contact& c : contacts[i]) deepest = std::min(deepest, (double)c.distance);
        ccfuzz::Reference r = ccfuzz::surface_reference(pairs[i]);
        double expected = r.distance - pairs[i].a.margin;
        EXPECT_NEAR(deepest, expected, 1e-5 * ccfuzz::surface_extent(pairs[i])) << cases[i];
    }
    for (const char* c : crossing) {
        ccfuzz::SurfacePair p;
        ASSERT_TRUE(ccfuzz::parse_surface_pair(c, &p)) << c;
        auto got = ccfuzz::collide_surface_pairs({p}, cc_device_cpu(), &error);
        ASSERT_TRUE(error.empty()) << error;
        ASSERT_FALSE(got[0].empty()) << c;
        for (const ccfuzz::Finding& f : ccfuzz::score_surface(p, got[0]))
            ADD_FAILURE() << ccfuzz::check_name(f.check) << ": " << f.detail << " -- " << c;
    }
}

} // namespace
